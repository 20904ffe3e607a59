import { and, count, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { apiTokens, users } from '../../db/schema';
import type { User } from './users.server';
import { db, preparedStatement, writeTransaction } from '~/utils/db.server';
import { hashToken, newId, newSecretToken } from '~/utils/ids.server';

/** The most tokens one member may hold at once. */
export const MAX_API_TOKENS = 10;
/** Every token starts with this, so a leaked one is recognisable (secret scanners, logs). */
export const API_TOKEN_PREFIX = 'cgk_';
/** `last_used_at` is written at most this often per token: a busy client costs no write per call. */
const LAST_USED_RESOLUTION_MS = 60_000;

export interface ApiTokenSummary {
  id: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** A member's tokens, newest first: never the token, which only its maker saw once. */
export function listApiTokens(userId: string): ApiTokenSummary[] {
  return db()
    .select({
      id: apiTokens.id,
      name: apiTokens.name,
      createdAt: apiTokens.createdAt,
      lastUsedAt: apiTokens.lastUsedAt,
    })
    .from(apiTokens)
    .where(eq(apiTokens.userId, userId))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id))
    .all();
}

/**
 * A new token for the member, or null when they already hold MAX_API_TOKENS. The count and the
 * insert share one write transaction, so two tabs at once cannot make an eleventh.
 */
export function insertApiToken(
  userId: string,
  name: string,
): { token: string; summary: ApiTokenSummary } | null {
  return writeTransaction((tx) => {
    const held = tx
      .select({ n: count() })
      .from(apiTokens)
      .where(eq(apiTokens.userId, userId))
      .get()!.n;
    if (held >= MAX_API_TOKENS) return null;
    const token = `${API_TOKEN_PREFIX}${newSecretToken()}`;
    const row = tx
      .insert(apiTokens)
      .values({ id: newId(), userId, name, tokenHash: hashToken(token) })
      .returning()
      .get();
    return {
      token,
      summary: { id: row.id, name: row.name, createdAt: row.createdAt, lastUsedAt: null },
    };
  });
}

/** Revokes one of the member's own tokens; false when they hold no token with that id. */
export function deleteApiToken(userId: string, tokenId: string): boolean {
  return (
    db()
      .delete(apiTokens)
      .where(and(eq(apiTokens.id, tokenId), eq(apiTokens.userId, userId)))
      .run().changes > 0
  );
}

/** Every token of the member (with a password change, in revokeAccountAccess's transaction). */
export function deleteApiTokensOf(userId: string) {
  db().delete(apiTokens).where(eq(apiTokens.userId, userId)).run();
}

const tokenUserStatement = preparedStatement((db) =>
  db
    .select({ tokenId: apiTokens.id, lastUsedAt: apiTokens.lastUsedAt, user: users })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(eq(apiTokens.tokenHash, sql.placeholder('hash')))
    .prepare(),
);

const touchStatement = preparedStatement((db) =>
  db
    .update(apiTokens)
    .set({ lastUsedAt: sql`${sql.placeholder('now')}` })
    .where(
      and(
        eq(apiTokens.id, sql.placeholder('id')),
        or(isNull(apiTokens.lastUsedAt), lt(apiTokens.lastUsedAt, sql.placeholder('before'))),
      ),
    )
    .prepare(),
);

/**
 * The member a token belongs to, or null for a token that does not exist (made up, revoked, or
 * ended by a password change). Marks the token used, to the minute.
 */
export function userOfApiToken(token: string, now = Date.now()): User | null {
  if (!token.startsWith(API_TOKEN_PREFIX)) return null;
  const row = tokenUserStatement().get({ hash: hashToken(token) });
  if (!row) return null;
  if (!row.lastUsedAt || row.lastUsedAt.getTime() < now - LAST_USED_RESOLUTION_MS)
    touchStatement().run({ id: row.tokenId, now, before: now - LAST_USED_RESOLUTION_MS });
  return row.user;
}

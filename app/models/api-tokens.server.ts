import { and, count, desc, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { User } from './users.server';
import { database, first, preparedQuery, tables, transaction } from '~/utils/database.server';
import { hashToken, newId, newSecretToken } from '~/utils/ids.server';

/** The most tokens one member may hold at once. */
export const MAX_API_TOKENS = 10;
/** Every token starts with this, so a leaked one is recognisable (secret scanners, logs). */
const API_TOKEN_PREFIX = 'cgk_';
/** `last_used_at` is written at most this often per token: a busy client costs no write per call. */
const LAST_USED_RESOLUTION_MS = 60_000;

export interface ApiTokenSummary {
  id: string;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

/** A member's tokens, newest first: never the token, which only its maker saw once. */
export async function listApiTokens(userId: string): Promise<ApiTokenSummary[]> {
  const { apiTokens } = tables;
  return database()
    .select({
      id: apiTokens.id,
      name: apiTokens.name,
      createdAt: apiTokens.createdAt,
      lastUsedAt: apiTokens.lastUsedAt,
    })
    .from(apiTokens)
    .where(eq(apiTokens.userId, userId))
    .orderBy(desc(apiTokens.createdAt), desc(apiTokens.id));
}

/**
 * A new token for the member, or null when they already hold MAX_API_TOKENS. The count and the
 * insert share one write transaction, so two tabs at once cannot make an eleventh.
 */
export async function insertApiToken(
  userId: string,
  name: string,
): Promise<{ token: string; summary: ApiTokenSummary } | null> {
  return transaction(async (tx) => {
    const { apiTokens } = tables;
    const held = await first(
      tx.select({ n: count() }).from(apiTokens).where(eq(apiTokens.userId, userId)),
    );
    if (held!.n >= MAX_API_TOKENS) return null;
    const token = `${API_TOKEN_PREFIX}${newSecretToken()}`;
    const [row] = await tx
      .insert(apiTokens)
      .values({ id: newId(), userId, name, tokenHash: hashToken(token) })
      .returning();
    return {
      token,
      summary: { id: row!.id, name: row!.name, createdAt: row!.createdAt, lastUsedAt: null },
    };
  });
}

/** Revokes one of the member's own tokens; false when they hold no token with that id. */
export async function deleteApiToken(userId: string, tokenId: string): Promise<boolean> {
  const { apiTokens } = tables;
  const deleted = await database()
    .delete(apiTokens)
    .where(and(eq(apiTokens.id, tokenId), eq(apiTokens.userId, userId)))
    .returning({ id: apiTokens.id });
  return deleted.length > 0;
}

/** Every token of the member (with a password change, in revokeAccountAccess's transaction). */
export async function deleteApiTokensOf(userId: string): Promise<void> {
  const { apiTokens } = tables;
  await database().delete(apiTokens).where(eq(apiTokens.userId, userId));
}

/**
 * A placeholder whose value is mapped by `column` as a plain value would be (a Date becomes
 * SQLite's milliseconds or PostgreSQL's timestamp); a bare placeholder is passed through as is.
 */
function columnPlaceholder(name: string, column: { mapToDriverValue(value: unknown): unknown }) {
  return sql`${sql.param(sql.placeholder(name), column)}`;
}

const tokenUserQuery = preparedQuery((db, { apiTokens, users }) =>
  db
    .select({ tokenId: apiTokens.id, lastUsedAt: apiTokens.lastUsedAt, user: users })
    .from(apiTokens)
    .innerJoin(users, eq(users.id, apiTokens.userId))
    .where(eq(apiTokens.tokenHash, sql.placeholder('hash')))
    .prepare(),
);

const touchQuery = preparedQuery((db, { apiTokens }) =>
  db
    .update(apiTokens)
    .set({ lastUsedAt: columnPlaceholder('now', apiTokens.lastUsedAt) })
    .where(
      and(
        eq(apiTokens.id, sql.placeholder('id')),
        or(
          isNull(apiTokens.lastUsedAt),
          lt(apiTokens.lastUsedAt, columnPlaceholder('before', apiTokens.lastUsedAt)),
        ),
      ),
    )
    .prepare(),
);

/**
 * The member a token belongs to, or null for a token that does not exist (made up, revoked, or
 * ended by a password change). Marks the token used, to the minute.
 */
export async function userOfApiToken(token: string, now = Date.now()): Promise<User | null> {
  if (!token.startsWith(API_TOKEN_PREFIX)) return null;
  const [row] = await tokenUserQuery().execute({ hash: hashToken(token) });
  if (!row) return null;
  if (!row.lastUsedAt || row.lastUsedAt.getTime() < now - LAST_USED_RESOLUTION_MS)
    await touchQuery().execute({
      id: row.tokenId,
      now: new Date(now),
      before: new Date(now - LAST_USED_RESOLUTION_MS),
    });
  return row.user;
}

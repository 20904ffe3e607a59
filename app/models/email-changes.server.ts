import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import { emailChangeTokens, users } from '../../db/schema';
import { isEmailTakenByOther } from './user-accounts.server';
import { normalizeEmail, type User } from './users.server';
import { db, writeTransaction } from '~/utils/db.server';
import { hashToken, newSecretToken } from '~/utils/ids.server';

/** A confirmation link works for a day, once; the newest request replaces older ones. */
export const EMAIL_CHANGE_TTL_MS = 24 * 60 * 60 * 1000;

function spendOpenTokens(userId: string, now: Date) {
  db()
    .update(emailChangeTokens)
    .set({ usedAt: now })
    .where(and(eq(emailChangeTokens.userId, userId), isNull(emailChangeTokens.usedAt)))
    .run();
}

/**
 * Records that `userId` asked to move to `newEmail` and returns the token for the link sent
 * there; only its SHA-256 is stored. Earlier requests of the user stop working.
 */
export function createEmailChangeToken(userId: string, newEmail: string): string {
  const now = new Date();
  spendOpenTokens(userId, now);
  const token = newSecretToken();
  db()
    .insert(emailChangeTokens)
    .values({
      tokenHash: hashToken(token),
      userId,
      newEmail: normalizeEmail(newEmail),
      expiresAt: new Date(now.getTime() + EMAIL_CHANGE_TTL_MS),
    })
    .run();
  return token;
}

function liveToken(token: string, now: Date) {
  return and(
    eq(emailChangeTokens.tokenHash, hashToken(token)),
    isNull(emailChangeTokens.usedAt),
    gt(emailChangeTokens.expiresAt, now),
  );
}

/** The address a live token would move its account to (the page asks before confirming). */
export function emailChangeFor(token: string): string | undefined {
  return db()
    .select({ newEmail: emailChangeTokens.newEmail })
    .from(emailChangeTokens)
    .where(liveToken(token, new Date()))
    .get()?.newEmail;
}

/** The address the member is waiting to confirm, if any (the profile page shows it). */
export function pendingEmailChange(userId: string): string | undefined {
  return db()
    .select({ newEmail: emailChangeTokens.newEmail })
    .from(emailChangeTokens)
    .where(
      and(
        eq(emailChangeTokens.userId, userId),
        isNull(emailChangeTokens.usedAt),
        gt(emailChangeTokens.expiresAt, new Date()),
      ),
    )
    .orderBy(desc(emailChangeTokens.createdAt))
    .get()?.newEmail;
}

export type EmailChangeOutcome =
  { changed: true; user: User; oldEmail: string } | { changed: false; reason: 'invalid' | 'taken' };

/**
 * Spends a live token and moves its account to the new address in one transaction (two racing
 * confirmations cannot both win). An address another account took meanwhile changes nothing and
 * leaves the link as it was. `alongside` writes what must be stored with the change (its mail).
 */
export function redeemEmailChange(
  token: string,
  alongside?: (change: { user: User; oldEmail: string }) => void,
): EmailChangeOutcome {
  return writeTransaction((tx) => {
    const now = new Date();
    const request = tx.select().from(emailChangeTokens).where(liveToken(token, now)).get();
    if (!request) return { changed: false, reason: 'invalid' };
    if (isEmailTakenByOther(request.newEmail, request.userId))
      return { changed: false, reason: 'taken' };
    const before = tx
      .select({ email: users.email })
      .from(users)
      .where(eq(users.id, request.userId))
      .get();
    if (!before) return { changed: false, reason: 'invalid' };
    spendOpenTokens(request.userId, now);
    const user = tx
      .update(users)
      .set({ email: request.newEmail, updatedAt: now })
      .where(eq(users.id, request.userId))
      .returning()
      .get();
    alongside?.({ user, oldEmail: before.email });
    return { changed: true, user, oldEmail: before.email };
  });
}

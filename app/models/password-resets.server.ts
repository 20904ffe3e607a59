import { and, eq, gt, isNull } from 'drizzle-orm';
import { passwordResetTokens, users } from '../../db/schema';
import { revokeAccountAccess } from './account-access.server';
import { db, writeTransaction } from '~/utils/db.server';
import { hashToken, newSecretToken } from '~/utils/ids.server';

/** A reset link works for one hour, once. */
export const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

/** Issues a reset token for a user; only its SHA-256 is stored, the token itself goes by email. */
export function createPasswordResetToken(userId: string): string {
  const token = newSecretToken();
  db()
    .insert(passwordResetTokens)
    .values({
      tokenHash: hashToken(token),
      userId,
      expiresAt: new Date(Date.now() + RESET_TOKEN_TTL_MS),
    })
    .run();
  return token;
}

function liveToken(token: string, now: Date) {
  return and(
    eq(passwordResetTokens.tokenHash, hashToken(token)),
    isNull(passwordResetTokens.usedAt),
    gt(passwordResetTokens.expiresAt, now),
  );
}

/** True while a token is unused and younger than an hour (the reset page asks before showing its form). */
export function isResetTokenUsable(token: string): boolean {
  return Boolean(
    db()
      .select({ userId: passwordResetTokens.userId })
      .from(passwordResetTokens)
      .where(liveToken(token, new Date()))
      .get(),
  );
}

/**
 * Spends a token and sets the new password in one transaction: the token is
 * marked used only if it is still live (so two racing requests cannot both
 * win), and every session, other reset link and pending email change of that
 * user is revoked with it. Returns the user's id, email and name, or null when
 * the token is unknown, used or expired.
 */
export function redeemPasswordResetToken(
  token: string,
  passwordHash: string,
): { userId: string; email: string; name: string } | null {
  return writeTransaction((tx) => {
    const now = new Date();
    const spent = tx
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(liveToken(token, now))
      .returning({ userId: passwordResetTokens.userId })
      .get();
    if (!spent) return null;
    revokeAccountAccess(spent.userId, now);
    const user = tx
      .update(users)
      .set({ passwordHash, updatedAt: now })
      .where(eq(users.id, spent.userId))
      .returning({ userId: users.id, email: users.email, name: users.name })
      .get();
    return user ?? null;
  });
}

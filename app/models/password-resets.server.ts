import { and, eq, gt, isNull } from 'drizzle-orm';
import { revokeAccountAccess } from './account-access.server';
import { database, first, tables, transaction } from '~/utils/database.server';
import { hashToken, newSecretToken } from '~/utils/ids.server';

/** A reset link works for one hour, once. */
const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;

/** Issues a reset token for a user; only its SHA-256 is stored, the token itself goes by email. */
export async function createPasswordResetToken(userId: string): Promise<string> {
  const { passwordResetTokens } = tables;
  const token = newSecretToken();
  await database()
    .insert(passwordResetTokens)
    .values({
      tokenHash: hashToken(token),
      userId,
      expiresAt: new Date(Date.now() + RESET_TOKEN_TTL_MS),
    });
  return token;
}

function liveToken(token: string, now: Date) {
  const { passwordResetTokens } = tables;
  return and(
    eq(passwordResetTokens.tokenHash, hashToken(token)),
    isNull(passwordResetTokens.usedAt),
    gt(passwordResetTokens.expiresAt, now),
  );
}

/** True while a token is unused and younger than an hour (the reset page asks before showing its form). */
export async function isResetTokenUsable(token: string): Promise<boolean> {
  const { passwordResetTokens } = tables;
  const live = await first(
    database()
      .select({ userId: passwordResetTokens.userId })
      .from(passwordResetTokens)
      .where(liveToken(token, new Date()))
      .limit(1),
  );
  return Boolean(live);
}

/**
 * Spends a token and sets the new password in one transaction: the token is
 * marked used only if it is still live (so two racing requests cannot both
 * win), and every session, other reset link and pending email change of that
 * user is revoked with it. Returns the user's id, email and name, or null when
 * the token is unknown, used or expired.
 */
export async function redeemPasswordResetToken(
  token: string,
  passwordHash: string,
): Promise<{ userId: string; email: string; name: string } | null> {
  return transaction(async (tx) => {
    const { passwordResetTokens, users } = tables;
    const now = new Date();
    const [spent] = await tx
      .update(passwordResetTokens)
      .set({ usedAt: now })
      .where(liveToken(token, now))
      .returning({ userId: passwordResetTokens.userId });
    if (!spent) return null;
    await revokeAccountAccess(spent.userId, now);
    const [user] = await tx
      .update(users)
      .set({ passwordHash, updatedAt: now })
      .where(eq(users.id, spent.userId))
      .returning({ userId: users.id, email: users.email, name: users.name });
    return user ?? null;
  });
}

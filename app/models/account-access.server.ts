import { and, eq, isNull } from 'drizzle-orm';
import { database, tables } from '~/utils/database.server';
import { deleteApiTokensOf } from './api-tokens.server';

/**
 * Everything the old password let someone hold on to: every session, every API token, every
 * reset link and every email change waiting for confirmation. Called in the transaction that
 * stores a new password (profile change or reset), so someone who had the account cannot keep it
 * through any of them.
 */
export async function revokeAccountAccess(userId: string, now = new Date()): Promise<void> {
  const { emailChangeTokens, passwordResetTokens, sessions } = tables;
  await database().delete(sessions).where(eq(sessions.userId, userId));
  await deleteApiTokensOf(userId);
  await database()
    .update(passwordResetTokens)
    .set({ usedAt: now })
    .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)));
  await database()
    .update(emailChangeTokens)
    .set({ usedAt: now })
    .where(and(eq(emailChangeTokens.userId, userId), isNull(emailChangeTokens.usedAt)));
}

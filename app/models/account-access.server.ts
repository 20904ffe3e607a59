import { and, eq, isNull } from 'drizzle-orm';
import { emailChangeTokens, passwordResetTokens, sessions } from '../../db/schema';
import { db } from '~/utils/db.server';
import { deleteApiTokensOf } from './api-tokens.server';

/**
 * Everything the old password let someone hold on to: every session, every API token, every
 * reset link and every email change waiting for confirmation. Called in the transaction that
 * stores a new password (profile change or reset), so someone who had the account cannot keep it
 * through any of them.
 */
export function revokeAccountAccess(userId: string, now = new Date()) {
  db().delete(sessions).where(eq(sessions.userId, userId)).run();
  deleteApiTokensOf(userId);
  db()
    .update(passwordResetTokens)
    .set({ usedAt: now })
    .where(and(eq(passwordResetTokens.userId, userId), isNull(passwordResetTokens.usedAt)))
    .run();
  db()
    .update(emailChangeTokens)
    .set({ usedAt: now })
    .where(and(eq(emailChangeTokens.userId, userId), isNull(emailChangeTokens.usedAt)))
    .run();
}

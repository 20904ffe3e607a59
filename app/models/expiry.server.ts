import { lt } from 'drizzle-orm';
import { database, tables } from '~/utils/database.server';

/** Deletes sessions and reset tokens that expired before `now`; says how many of each. */
export async function purgeExpired(now: Date) {
  const { passwordResetTokens, sessions } = tables;
  const expiredSessions = await database()
    .delete(sessions)
    .where(lt(sessions.expiresAt, now))
    .returning({ id: sessions.id });
  const expiredTokens = await database()
    .delete(passwordResetTokens)
    .where(lt(passwordResetTokens.expiresAt, now))
    .returning({ tokenHash: passwordResetTokens.tokenHash });
  return { sessions: expiredSessions.length, resetTokens: expiredTokens.length };
}

import { lt } from 'drizzle-orm';
import { passwordResetTokens, sessions } from '../../db/schema';
import { db } from '~/utils/db.server';

/** Deletes sessions and reset tokens that expired before `now`; says how many of each. */
export function purgeExpired(now: Date) {
  const expiredSessions = db().delete(sessions).where(lt(sessions.expiresAt, now)).run();
  const expiredTokens = db()
    .delete(passwordResetTokens)
    .where(lt(passwordResetTokens.expiresAt, now))
    .run();
  return { sessions: expiredSessions.changes, resetTokens: expiredTokens.changes };
}

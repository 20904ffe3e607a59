import type { Job } from 'bullmq';
import { lt } from 'drizzle-orm';
import { passwordResetTokens, sessions } from '../../db/schema';
import { db } from '~/utils/db.server';
import { maintenancePayload } from './queue';

export async function processMaintenance(job: Job) {
  const payload = maintenancePayload.parse(job.data);
  switch (payload.task) {
    case 'purge-expired': {
      const now = new Date();
      const expiredSessions = db().delete(sessions).where(lt(sessions.expiresAt, now)).run();
      const expiredTokens = db()
        .delete(passwordResetTokens)
        .where(lt(passwordResetTokens.expiresAt, now))
        .run();
      return { sessions: expiredSessions.changes, resetTokens: expiredTokens.changes };
    }
    case 'selftest': {
      await job.updateProgress(0);
      await new Promise((resolve) => setTimeout(resolve, payload.holdMs));
      await job.updateProgress(100);
      return { ok: true, pid: process.pid };
    }
  }
}

import type { Job } from 'bullmq';
import { purgeExpired } from '~/models/expiry.server';
import { endPaidPeriods, reconcileSubscriptions } from '~/services/billing/reconciliation.server';
import { maintenanceQueue } from '~/queues/maintenance.server';

export async function processMaintenance(job: Job) {
  const payload = maintenanceQueue.payload.parse(job.data);
  switch (payload.task) {
    case 'purge-expired': {
      return await purgeExpired(new Date());
    }
    case 'end-paid-periods': {
      return { members: await endPaidPeriods() };
    }
    case 'reconcile-billing': {
      return { corrections: await reconcileSubscriptions(new Date(), payload.periodMinutes) };
    }
    case 'selftest': {
      await job.updateProgress(0);
      await new Promise((resolve) => setTimeout(resolve, payload.holdMs));
      await job.updateProgress(100);
      return { ok: true, pid: process.pid };
    }
  }
}

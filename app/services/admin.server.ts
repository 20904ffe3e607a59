import type { Job } from 'bullmq';
import { z } from 'zod';
import type { PolicyKey } from '../../db/schema';
import { fail, ok, type Result } from '~/domain/result';
import { recordAudit, setRole } from '~/models/admin.server';
import { savePolicy } from '~/models/policies.server';
import { getUserByEmail, type User } from '~/models/users.server';
import { billingEventQueue } from '~/queues/billing-event.server';
import { certificateEmailQueue } from '~/queues/certificate-email.server';
import { lessonQueue } from '~/queues/lesson.server';
import { maintenanceQueue } from '~/queues/maintenance.server';
import { outlineQueue } from '~/queues/outline.server';
import { flashcardsQueue } from '~/queues/flashcards.server';
import { sanitizeHtml } from '~/utils/sanitize-html.server';
import { parseWith, requiredText } from '~/utils/validation.server';

/**
 * What admins change: who is an admin, the five policy texts and stuck jobs.
 * Every change is recorded in the audit log with who made it.
 */
const ADMIN_MESSAGES = {
  added: 'Admin added',
  removed: 'Admin removed',
  noSuchMember: 'No member has this email',
  mainAdmin: 'The main admin cannot be removed',
  self: 'You cannot remove yourself',
  notAdmin: 'This member is not an admin',
  alreadyAdmin: 'This member is already an admin',
  saved: 'Policy saved',
} as const;

export async function addAdmin(actor: User, email: string): Promise<Result<{ message: string }>> {
  const user = await getUserByEmail(email);
  if (!user) return fail(ADMIN_MESSAGES.noSuchMember, 404);
  if (user.role !== 'member') return fail(ADMIN_MESSAGES.alreadyAdmin, 409);
  await setRole(user.id, 'admin');
  await recordAudit(actor, 'add-admin', user.email);
  return ok({ message: ADMIN_MESSAGES.added });
}

export async function removeAdmin(
  actor: User,
  email: string,
): Promise<Result<{ message: string }>> {
  const user = await getUserByEmail(email);
  if (!user) return fail(ADMIN_MESSAGES.noSuchMember, 404);
  if (user.role === 'main_admin') return fail(ADMIN_MESSAGES.mainAdmin, 403);
  if (user.id === actor.id) return fail(ADMIN_MESSAGES.self, 403);
  if (user.role !== 'admin') return fail(ADMIN_MESSAGES.notAdmin, 409);
  await setRole(user.id, 'member');
  await recordAudit(actor, 'remove-admin', user.email);
  return ok({ message: ADMIN_MESSAGES.removed });
}

const roleChange = z.object({ intent: z.enum(['add', 'remove']), email: requiredText(254) });

/** The Add Admin and Remove Admin buttons of the Users and Admins tables (`intent`, `email`). */
export async function changeAdminRole(
  actor: User,
  form: unknown,
): Promise<Result<{ message: string }>> {
  const parsed = parseWith(roleChange, form);
  if (!parsed.ok) return parsed;
  const { intent, email } = parsed.value;
  return intent === 'add' ? addAdmin(actor, email) : removeAdmin(actor, email);
}

/** Saves a policy text, sanitized on the way in (and again whenever it is shown). */
export async function savePolicyText(
  actor: User,
  key: PolicyKey,
  html: string,
): Promise<Result<{ message: string }>> {
  await savePolicy(key, sanitizeHtml(html), actor.id);
  await recordAudit(actor, 'save-policy', key);
  return ok({ message: ADMIN_MESSAGES.saved });
}

/** Every queue the worker serves, for the queue monitor. */
const QUEUES = [
  outlineQueue,
  lessonQueue,
  flashcardsQueue,
  certificateEmailQueue,
  billingEventQueue,
  maintenanceQueue,
];

export async function queueOverview() {
  return Promise.all(
    QUEUES.map(async (definition) => {
      const queue = definition.queue();
      const counts = await queue.getJobCounts(
        'waiting',
        'active',
        'delayed',
        'failed',
        'completed',
        'prioritized',
      );
      const troubled = [
        ...(await queue.getJobs(['failed'], 0, 19)),
        ...(await queue.getJobs(['delayed'], 0, 49)).filter((job) => job.attemptsMade > 0),
      ].slice(0, 20);
      return {
        name: definition.name,
        counts: {
          ...counts,
          waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0),
        } as Record<string, number>,
        jobs: await Promise.all(
          troubled.map(async (job: Job) => ({
            id: job.id ?? '',
            state: await job.getState(),
            attempts: job.attemptsMade,
            error: job.failedReason ?? '',
          })),
        ),
      };
    }),
  );
}

export async function changeJob(
  actor: User,
  queueName: string,
  jobId: string,
  what: 'retry' | 'remove',
): Promise<Result<{ message: string }>> {
  const definition = QUEUES.find((candidate) => candidate.name === queueName);
  const job = definition && (await definition.queue().getJob(jobId));
  if (!job) return fail('Job not found', 404);
  if (what === 'retry') {
    const state = await job.getState();
    if (state === 'failed') await job.retry('failed');
    else if (state === 'delayed') await job.promote();
    else return fail('Only failed or waiting-to-retry jobs can be retried', 409);
  } else {
    await job.remove();
  }
  await recordAudit(actor, `${what}-job`, `${queueName}/${jobId}`);
  return ok({ message: what === 'retry' ? 'Job queued again' : 'Job removed' });
}

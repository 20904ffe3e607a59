import { and, asc, eq, isNotNull, lte } from 'drizzle-orm';
import { demoWebhookDeliveries, type PaymentProvider } from '../../db/schema';
import { db } from '~/utils/db.server';

/**
 * Demo mode only: the simulated providers' outgoing webhooks, each kept until the app took it or
 * the provider gave up (ADR 0037). A row is due while `next_attempt_at` is set and has passed.
 */
export type DemoWebhookDelivery = typeof demoWebhookDeliveries.$inferSelect;

export function addDemoWebhookDelivery(
  input: { provider: PaymentProvider; body: string; headers: Record<string, string> },
  now: Date,
): number {
  return db()
    .insert(demoWebhookDeliveries)
    .values({ ...input, nextAttemptAt: now, createdAt: now })
    .returning({ id: demoWebhookDeliveries.id })
    .get().id;
}

export function getDemoWebhookDelivery(id: number): DemoWebhookDelivery | undefined {
  return db().select().from(demoWebhookDeliveries).where(eq(demoWebhookDeliveries.id, id)).get();
}

/** The deliveries whose next attempt is due, the longest waiting first. */
export function listDueDemoWebhookDeliveries(now: Date, limit: number): number[] {
  return db()
    .select({ id: demoWebhookDeliveries.id })
    .from(demoWebhookDeliveries)
    .where(
      and(
        isNotNull(demoWebhookDeliveries.nextAttemptAt),
        lte(demoWebhookDeliveries.nextAttemptAt, now),
      ),
    )
    .orderBy(asc(demoWebhookDeliveries.nextAttemptAt))
    .limit(limit)
    .all()
    .map((row) => row.id);
}

/**
 * Takes the due attempt of one delivery for this process: its next attempt moves `leaseMs` on,
 * so another process (or this one's next round) does not make the same attempt meanwhile.
 * Undefined when it is not due (delivered, given up, or taken by someone else).
 */
export function claimDemoWebhookDelivery(
  id: number,
  now: Date,
  leaseMs: number,
): DemoWebhookDelivery | undefined {
  return db()
    .update(demoWebhookDeliveries)
    .set({ nextAttemptAt: new Date(now.getTime() + leaseMs) })
    .where(
      and(
        eq(demoWebhookDeliveries.id, id),
        isNotNull(demoWebhookDeliveries.nextAttemptAt),
        lte(demoWebhookDeliveries.nextAttemptAt, now),
      ),
    )
    .returning()
    .get();
}

export function recordDemoWebhookDelivered(id: number, attempts: number, now: Date) {
  db()
    .update(demoWebhookDeliveries)
    .set({ attempts, deliveredAt: now, nextAttemptAt: null, lastError: null })
    .where(eq(demoWebhookDeliveries.id, id))
    .run();
}

/** A failed attempt: the next one at `nextAttemptAt`, or none (null) when the provider gives up. */
export function recordDemoWebhookFailed(
  id: number,
  attempts: number,
  error: string,
  nextAttemptAt: Date | null,
) {
  db()
    .update(demoWebhookDeliveries)
    .set({ attempts, lastError: error.slice(0, 500), nextAttemptAt })
    .where(eq(demoWebhookDeliveries.id, id))
    .run();
}

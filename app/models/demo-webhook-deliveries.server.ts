import { and, asc, eq, isNotNull, lte } from 'drizzle-orm';
import type { demoWebhookDeliveries, PaymentProvider } from '../../db/schema';
import { database, tables } from '~/utils/database.server';

/**
 * Demo mode only: the simulated providers' outgoing webhooks, each kept until the app took it or
 * the provider gave up (ADR 0037). A row is due while `next_attempt_at` is set and has passed.
 */
export type DemoWebhookDelivery = typeof demoWebhookDeliveries.$inferSelect;

export async function addDemoWebhookDelivery(
  input: { provider: PaymentProvider; body: string; headers: Record<string, string> },
  now: Date,
): Promise<number> {
  const { demoWebhookDeliveries } = tables;
  const [row] = await database()
    .insert(demoWebhookDeliveries)
    .values({ ...input, nextAttemptAt: now, createdAt: now })
    .returning({ id: demoWebhookDeliveries.id });
  return row!.id;
}

/** The deliveries whose next attempt is due, the longest waiting first. */
export async function listDueDemoWebhookDeliveries(now: Date, limit: number): Promise<number[]> {
  const { demoWebhookDeliveries } = tables;
  const rows = await database()
    .select({ id: demoWebhookDeliveries.id })
    .from(demoWebhookDeliveries)
    .where(
      and(
        isNotNull(demoWebhookDeliveries.nextAttemptAt),
        lte(demoWebhookDeliveries.nextAttemptAt, now),
      ),
    )
    .orderBy(asc(demoWebhookDeliveries.nextAttemptAt))
    .limit(limit);
  return rows.map((row) => row.id);
}

/**
 * Takes the due attempt of one delivery for this process: its next attempt moves `leaseMs` on,
 * so another process (or this one's next round) does not make the same attempt meanwhile.
 * Undefined when it is not due (delivered, given up, or taken by someone else).
 */
export async function claimDemoWebhookDelivery(
  id: number,
  now: Date,
  leaseMs: number,
): Promise<DemoWebhookDelivery | undefined> {
  const { demoWebhookDeliveries } = tables;
  const [row] = await database()
    .update(demoWebhookDeliveries)
    .set({ nextAttemptAt: new Date(now.getTime() + leaseMs) })
    .where(
      and(
        eq(demoWebhookDeliveries.id, id),
        isNotNull(demoWebhookDeliveries.nextAttemptAt),
        lte(demoWebhookDeliveries.nextAttemptAt, now),
      ),
    )
    .returning();
  return row;
}

export async function recordDemoWebhookDelivered(id: number, attempts: number, now: Date) {
  const { demoWebhookDeliveries } = tables;
  await database()
    .update(demoWebhookDeliveries)
    .set({ attempts, deliveredAt: now, nextAttemptAt: null, lastError: null })
    .where(eq(demoWebhookDeliveries.id, id));
}

/** A failed attempt: the next one at `nextAttemptAt`, or none (null) when the provider gives up. */
export async function recordDemoWebhookFailed(
  id: number,
  attempts: number,
  error: string,
  nextAttemptAt: Date | null,
) {
  const { demoWebhookDeliveries } = tables;
  await database()
    .update(demoWebhookDeliveries)
    .set({ attempts, lastError: error.slice(0, 500), nextAttemptAt })
    .where(eq(demoWebhookDeliveries.id, id));
}

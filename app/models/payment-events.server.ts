import { eq } from 'drizzle-orm';
import { paymentEvents, type PaymentProvider } from '../../db/schema';
import { db } from '~/utils/db.server';

export type PaymentEvent = typeof paymentEvents.$inferSelect;

/**
 * Stores a verified webhook as the provider sent it, once: the event's key (and, when given, its
 * second key) is unique per provider, so a redelivery returns null and changes nothing.
 */
export function storeWebhookEvent(input: {
  provider: PaymentProvider;
  providerEventId: string;
  headerEventId?: string | null;
  kind: string;
  payload: unknown;
  subscriptionId: string | null;
}): number | null {
  const row = db()
    .insert(paymentEvents)
    .values({ ...input, payload: input.payload as object })
    .onConflictDoNothing()
    .returning({ id: paymentEvents.id })
    .get();
  return row?.id ?? null;
}

export function getPaymentEvent(id: number): PaymentEvent | undefined {
  return db().select().from(paymentEvents).where(eq(paymentEvents.id, id)).get();
}

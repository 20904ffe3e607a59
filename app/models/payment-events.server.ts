import { eq } from 'drizzle-orm';
import type { paymentEvents, PaymentProvider } from '../../db/schema';
import { database, first, tables } from '~/utils/database.server';

export type PaymentEvent = typeof paymentEvents.$inferSelect;

/**
 * Stores a verified webhook as the provider sent it, once: the event's key (and, when given, its
 * second key) is unique per provider, so a redelivery returns null and changes nothing.
 */
export async function storeWebhookEvent(input: {
  provider: PaymentProvider;
  providerEventId: string;
  headerEventId?: string | null;
  kind: string;
  payload: unknown;
  subscriptionId: string | null;
}): Promise<number | null> {
  const { paymentEvents } = tables;
  const [row] = await database()
    .insert(paymentEvents)
    .values({ ...input, payload: input.payload as object })
    .onConflictDoNothing()
    .returning({ id: paymentEvents.id });
  return row?.id ?? null;
}

export async function getPaymentEvent(id: number): Promise<PaymentEvent | undefined> {
  const { paymentEvents } = tables;
  return first(database().select().from(paymentEvents).where(eq(paymentEvents.id, id)));
}

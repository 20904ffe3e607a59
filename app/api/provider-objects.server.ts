import type { z } from 'zod';
import type {
  PayPalSubscription,
  RazorpaySubscription,
} from './contract/provider-subscriptions.server';

/**
 * The providers' own subscription objects, which the `/api` answers as the spec's "provider
 * subscription object". They come from the provider's REST API as they are; these only give
 * them their documented type (the contract test checks them against the document).
 */
export type PayPalSubscriptionJson = z.output<typeof PayPalSubscription>;
export type RazorpaySubscriptionJson = z.output<typeof RazorpaySubscription>;

export function asPayPalSubscription(raw: unknown): PayPalSubscriptionJson {
  return raw as PayPalSubscriptionJson;
}

export function asRazorpaySubscription(raw: unknown): RazorpaySubscriptionJson {
  return raw as RazorpaySubscriptionJson;
}

/** What PayPal answered when the subscription was made: its status and links. */
export function payPalCreated(raw: unknown, id: string) {
  const created = (raw ?? {}) as {
    id?: unknown;
    status?: unknown;
    links?: { href?: unknown; rel?: unknown; method?: unknown }[];
  };
  const links = Array.isArray(created.links)
    ? created.links
        .filter((link) => typeof link.href === 'string' && typeof link.rel === 'string')
        .map((link) => ({
          href: String(link.href),
          rel: String(link.rel),
          method: typeof link.method === 'string' ? link.method : 'GET',
        }))
    : [];
  return {
    id: typeof created.id === 'string' ? created.id : id,
    status: typeof created.status === 'string' ? created.status : 'APPROVAL_PENDING',
    links,
  };
}

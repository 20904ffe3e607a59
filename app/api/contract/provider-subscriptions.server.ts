import { z } from 'zod';

/**
 * The providers' own subscription objects, as the `/api` answers them (the spec's "provider
 * subscription object"): their REST JSON, snake_case, loose so a field they add passes through.
 */

const money = z.looseObject({ value: z.string(), currency_code: z.string() });

/** PayPal's subscription as its REST API gives it (v1/billing/subscriptions), snake_case. */
export const PayPalSubscription = z
  .looseObject({
    id: z.string(),
    status: z.string(),
    plan_id: z.string(),
    start_time: z.string(),
    subscriber: z.looseObject({
      name: z.looseObject({ given_name: z.string(), surname: z.string() }),
      email_address: z.string(),
      shipping_address: z
        .looseObject({
          address: z.looseObject({
            address_line_1: z.string().optional(),
            postal_code: z.string().optional(),
            country_code: z.string(),
          }),
        })
        .optional(),
    }),
    billing_info: z
      .looseObject({
        next_billing_time: z.string().optional(),
        last_payment: z.looseObject({ amount: money, time: z.string() }).optional(),
      })
      .optional(),
  })
  .describe("PayPal's subscription object, exactly as PayPal's REST API returns it");

/** Razorpay's subscription entity as its API gives it. */
export const RazorpaySubscription = z
  .looseObject({
    id: z.string(),
    entity: z.literal('subscription'),
    plan_id: z.string(),
    status: z.string(),
    current_start: z.number().nullable().describe('Unix seconds'),
    charge_at: z.number().nullable().describe('Unix seconds'),
    customer_id: z.string().nullable(),
    notes: z.union([
      z.looseObject({ notes_key_1: z.string().optional() }),
      z.array(z.unknown()).describe('Razorpay sends [] when there are no notes'),
    ]),
    short_url: z.string(),
  })
  .describe("Razorpay's subscription entity, exactly as Razorpay's API returns it");

export const ProviderSubscription = z.union([PayPalSubscription, RazorpaySubscription]);

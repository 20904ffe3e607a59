import { z } from 'zod';
import { json, operation, type ApiOperation } from './operation.server';

/** Webhooks: for the payment providers only. */
export const webhookOperations = {
  paypalWebhook: operation({
    method: 'POST',
    path: '/webhooks/paypal',
    file: 'webhooks.paypal.ts',
    summary: "PayPal's events",
    description: "Verified with PayPal's verify-webhook-signature API; for PayPal only.",
    tag: 'Webhooks',
    audience: 'anyone',
    errors: [503],
    body: z.looseObject({}).describe("PayPal's event"),
    responses: { 200: json('Received', z.object({ received: z.literal(true) })) },
  }),
  razorpayWebhook: operation({
    method: 'POST',
    path: '/webhooks/razorpay',
    file: 'webhooks.razorpay.ts',
    summary: "Razorpay's events",
    description: 'Signed with X-Razorpay-Signature; for Razorpay only.',
    tag: 'Webhooks',
    audience: 'anyone',
    errors: [503],
    body: z.looseObject({}).describe("Razorpay's event"),
    responses: { 200: json('Received', z.object({ received: z.literal(true) })) },
  }),
} as const satisfies Record<string, ApiOperation>;

import { z } from 'zod';
import { PAYMENT_PROVIDERS } from '../../../db/enums';
import { isCountryCode } from '~/domain/countries';
import { requiredText } from '~/utils/validation.server';
import { json, operation, type ApiOperation } from './operation.server';
import { ignored, isoDate, MemberTypeSchema, Message, success } from './shapes.server';
import {
  PayPalSubscription,
  ProviderSubscription,
  RazorpaySubscription,
} from './provider-subscriptions.server';

const PayPalLink = z.object({ href: z.url(), rel: z.string(), method: z.string() });

const customerFields = {
  email: requiredText(254),
  name: requiredText(100),
  lastName: requiredText(100),
  post: z.union([z.string(), z.number()]).transform(String).pipe(requiredText(12)),
  address: requiredText(300),
  country: requiredText(2),
};
const customerRules = {
  email: z.email('Please enter a valid email address'),
  name: z.string(),
  lastName: z.string(),
  post: z.string().regex(/^\d{3,10}$/, 'The postal code should contain only digits'),
  address: z.string(),
  country: z.string().refine(isCountryCode, 'Please give a two-letter country code'),
};

/** Billing: PayPal and Razorpay subscriptions. */
export const billingOperations = {
  paypal: operation({
    method: 'POST',
    path: '/api/paypal',
    file: 'api.paypal.ts',
    summary: 'Start a PayPal subscription',
    description:
      'The member approves it at the `rel: approve` link. brand, admin and user are ignored.',
    tag: 'Billing',
    audience: 'member',
    idempotent: true,
    errors: [403, 404, 409, 410, 422, 502],
    body: z
      .object({ planId: requiredText(64), ...customerFields })
      .pipe(z.object({ planId: z.string(), ...customerRules })),
    responses: {
      200: json(
        'Created',
        z.object({
          success,
          id: z.string().describe("PayPal's subscription id"),
          status: z.string(),
          links: z.array(PayPalLink),
        }),
      ),
    },
  }),
  razorpaycreate: operation({
    method: 'POST',
    path: '/api/razorpaycreate',
    file: 'api.razorpaycreate.ts',
    summary: 'Start a Razorpay subscription',
    description:
      'Answers Razorpay’s subscription entity: the member pays at `short_url`, then `/api/razorapypending` with its `id`. `plan` is the plan’s name, id or Razorpay plan id.',
    tag: 'Billing',
    audience: 'member',
    idempotent: true,
    errors: [403, 404, 409, 410, 422, 502],
    body: z.object({
      plan: requiredText(64),
      email: requiredText(254).pipe(z.email('Please enter a valid email address')),
      fullAddress: z.string().max(600).optional(),
      name: z.string().max(100).optional(),
      lastName: z.string().max(100).optional(),
      post: z.union([z.string(), z.number()]).transform(String).optional(),
      address: z.string().max(300).optional(),
      country: z.string().max(2).optional(),
    }),
    responses: { 200: json('Created', RazorpaySubscription) },
  }),
  paypaldetails: operation({
    method: 'POST',
    path: '/api/paypaldetails',
    file: 'api.paypaldetails.ts',
    summary: 'Confirm a PayPal subscription',
    description:
      "When PayPal says it is active on one of the plans, the caller's membership becomes that plan. uid and plan are ignored.",
    tag: 'Billing',
    audience: 'member',
    errors: [403, 404, 409, 502],
    body: z.object({
      subscriberId: requiredText(64),
      uid: ignored('the caller is the token’s or session’s member'),
      plan: ignored('the plan is what PayPal says'),
    }),
    responses: { 200: json("PayPal's subscription object", PayPalSubscription) },
  }),
  razorapydetails: operation({
    method: 'POST',
    path: '/api/razorapydetails',
    file: 'api.razorapydetails.ts',
    summary: 'Confirm a Razorpay subscription',
    description: 'As /api/paypaldetails, for Razorpay (the path keeps the spec’s spelling).',
    tag: 'Billing',
    audience: 'member',
    errors: [403, 404, 409, 502],
    body: z.object({
      subscriberId: requiredText(64),
      uid: ignored('the caller is the token’s or session’s member'),
      plan: ignored('the plan is what Razorpay says'),
    }),
    responses: { 200: json("Razorpay's subscription entity", RazorpaySubscription) },
  }),
  sendreceipt: operation({
    method: 'POST',
    path: '/api/sendreceipt',
    file: 'api.sendreceipt.ts',
    summary: 'Email the receipt of the newest payment (once)',
    description: 'Rendered on the server; html, email and subscription sent along are ignored.',
    tag: 'Billing',
    audience: 'member',
    errors: [403, 404, 502],
    responses: { 200: json('Sent', Message) },
  }),
  downloadreceipt: operation({
    method: 'POST',
    path: '/api/downloadreceipt',
    file: 'api.downloadreceipt.ts',
    summary: 'Email the newest receipt again',
    description: 'As a PDF, to the caller’s own address; at most 5 an hour.',
    tag: 'Billing',
    audience: 'member',
    errors: [403, 404, 502],
    limited: true,
    responses: { 200: json('Sent', Message) },
  }),
  subscriptiondetail: operation({
    method: 'POST',
    path: '/api/subscriptiondetail',
    file: 'api.subscriptiondetail.ts',
    summary: "The caller's subscription",
    tag: 'Billing',
    audience: 'member',
    errors: [403, 404, 502],
    responses: {
      200: json(
        'The subscription',
        z.object({
          success,
          method: z.enum(PAYMENT_PROVIDERS),
          session: ProviderSubscription.nullable().describe(
            "The provider's own subscription object (null when it cannot be reached)",
          ),
          status: z.string().describe('As this site records it'),
          paidUntil: isoDate.nullable().describe('Set once cancelled: the plan lasts until then'),
        }),
      ),
    },
  }),
  paypalcancel: operation({
    method: 'POST',
    path: '/api/paypalcancel',
    file: 'api.paypalcancel.ts',
    summary: "Cancel the caller's subscription",
    description: 'The plan stays until the period paid for ends. Any `id` sent is ignored.',
    tag: 'Billing',
    audience: 'member',
    errors: [403, 404, 502],
    body: z.object({ id: ignored("the caller's own subscription is cancelled") }),
    responses: {
      200: json('Cancelled', z.object({ success, message: z.string(), paidUntil: isoDate })),
    },
  }),
  razorpaycancel: operation({
    method: 'POST',
    path: '/api/razorpaycancel',
    file: 'api.razorpaycancel.ts',
    summary: "Cancel the caller's subscription",
    description: 'The same as /api/paypalcancel.',
    tag: 'Billing',
    audience: 'member',
    errors: [403, 404, 502],
    body: z.object({ id: ignored("the caller's own subscription is cancelled") }),
    responses: {
      200: json('Cancelled', z.object({ success, message: z.string(), paidUntil: isoDate })),
    },
  }),
  paypalupdate: operation({
    method: 'POST',
    path: '/api/paypalupdate',
    file: 'api.paypalupdate.ts',
    summary: 'Move a PayPal subscription to the other plan',
    description: 'Approved at the `rel: approve` link. Any `id` sent is ignored.',
    tag: 'Billing',
    audience: 'member',
    errors: [403, 404, 409, 502],
    body: z.object({
      idPlan: z.string().max(64).optional().describe('The plan (default: the other paid plan)'),
      id: ignored("the caller's own subscription is changed"),
    }),
    responses: { 200: json('Revised', z.object({ success, links: z.array(PayPalLink) })) },
  }),
  paypalupdateuser: operation({
    method: 'POST',
    path: '/api/paypalupdateuser',
    file: 'api.paypalupdateuser.ts',
    summary: 'Confirm a plan change',
    description: 'The plan becomes what PayPal now says; mName, email, user and plan are ignored.',
    tag: 'Billing',
    audience: 'member',
    errors: [403, 404, 409, 502],
    body: z.object({ id: requiredText(64) }),
    responses: { 200: json('The new plan', z.object({ success, plan: MemberTypeSchema })) },
  }),
  razorapypending: operation({
    method: 'POST',
    path: '/api/razorapypending',
    file: 'api.razorapypending.ts',
    summary: 'Check a pending Razorpay payment',
    description: "'active' (the caller is now paid), 'pending', or 'cancelled'/'expired'.",
    tag: 'Billing',
    audience: 'member',
    errors: [403, 404, 502],
    body: z.object({ sub: requiredText(64) }),
    responses: { 200: json('Its status', z.object({ success, status: z.string() })) },
  }),
} as const satisfies Record<string, ApiOperation>;

import { z } from 'zod';
import { COURSE_TYPES } from '../../../db/enums';
import { COURSE_EXPORT_FORMATS, CURRENCIES, PLAN_IDS, PLAN_NAMES } from '~/domain/plans';
import { contactSchema } from '~/services/contact.server';
import { json, operation, type ApiOperation } from './operation.server';
import { Message, Policies } from './shapes.server';

const PlanPrice = z.object({
  amountCents: z.number().int().describe('In cents: hundredths of the currency'),
  currency: z.enum(CURRENCIES),
  formatted: z
    .string()
    .describe("As the pricing page shows it: '$8 / month', '₹699 / month', '$0'"),
  checkout: z
    .boolean()
    .describe('Whether a member can subscribe to the plan through this provider now'),
});

/**
 * A plan's limits as the server holds members to them. Loose: a limit added to the plans is
 * answered before it is described here.
 */
const PlanLimits = z
  .looseObject({
    topicCounts: z
      .array(z.number().int())
      .readonly()
      .describe('The numbers of topics a course may have'),
    courseTypes: z.array(z.enum(COURSE_TYPES)).readonly(),
    material: z
      .object({
        documents: z.boolean().describe('Whether documents may be attached'),
        pastedChars: z.number().int().describe('The most characters of text that may be pasted'),
      })
      .describe("A course from the member's own material"),
    tutorQuestionsPerDay: z.number().int().describe('Questions a member may ask the tutor a day'),
    lessonsPerTopic: z
      .number()
      .int()
      .describe('Lessons the AI gives each topic, and the most an edited topic may have'),
    exports: z
      .array(z.enum(COURSE_EXPORT_FORMATS))
      .readonly()
      .describe('The course downloads the plan includes'),
  })
  .describe('What a course and its member may have on this plan; more limits may be added');

const Plan = z.object({
  id: z.enum(PLAN_IDS),
  name: z.enum(Object.values(PLAN_NAMES)),
  period: z.enum(['month', 'year']).nullable().describe('Null for the free plan'),
  trialDays: z.number().int().describe('Days free before the first charge (0: none)'),
  prices: z
    .object({ paypal: PlanPrice, razorpay: PlanPrice })
    .describe('What each provider charges, each in its own currency'),
  limits: PlanLimits,
});

/** Site: public: contact, policies, plans and prices, the API's own document. */
export const siteOperations = {
  contact: operation({
    method: 'POST',
    path: '/api/contact',
    file: 'api.contact.ts',
    summary: 'Send a message to the site',
    tag: 'Site',
    audience: 'anyone',
    limited: true,
    body: contactSchema,
    responses: { 200: json('Sent', Message) },
  }),
  policies: operation({
    method: 'GET',
    path: '/api/policies',
    file: 'api.policies.ts',
    summary: 'The five policy texts',
    tag: 'Site',
    audience: 'anyone',
    responses: {
      200: json('One item holding every text (sanitized HTML)', z.array(Policies).length(1)),
    },
  }),
  plans: operation({
    method: 'GET',
    path: '/api/plans',
    file: 'api.plans.ts',
    summary: 'The plans, their prices and limits',
    description:
      'As the operator set them on the settings page: free, monthly and yearly, in that order.',
    tag: 'Site',
    audience: 'anyone',
    responses: { 200: json('Every plan', z.array(Plan).length(PLAN_IDS.length)) },
  }),
  openapi: operation({
    method: 'GET',
    path: '/api/openapi.json',
    file: 'api.openapi[.json].ts',
    summary: 'This document',
    tag: 'Site',
    audience: 'anyone',
    responses: { 200: json('OpenAPI 3.1', z.looseObject({ openapi: z.literal('3.1.0') })) },
  }),
  docs: operation({
    method: 'GET',
    path: '/api/docs',
    file: 'api.docs.ts',
    summary: 'This document, to read',
    tag: 'Site',
    audience: 'anyone',
    responses: {
      200: { description: 'An HTML page', schema: z.string(), contentType: 'text/html' },
    },
  }),
} as const satisfies Record<string, ApiOperation>;

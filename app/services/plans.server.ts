import { z } from 'zod';
import { PAYMENT_PROVIDERS, type PaymentProvider } from '../../db/enums';
import {
  COURSE_EXPORT_FORMATS,
  CURRENCIES,
  DEFAULT_PLAN_SETTINGS,
  isCurrency,
  MAX_LESSONS_PER_TOPIC,
  MAX_PLAN_PASTED_CHARS,
  MAX_PRICE_CENTS,
  MAX_TOPICS,
  MAX_TRIAL_DAYS,
  MAX_TUTOR_QUESTIONS_PER_DAY,
  PLAN_IDS,
  planTable,
  type Currency,
  type PaidPlanId,
  type PlanDefinition,
  type PlanId,
  type PlanSettings,
  type PlanTable,
} from '~/domain/plans';
import { fail, ok, type Result } from '~/domain/result';
import { isMainAdminRole } from '~/domain/roles';
import { getAuditEntry, listAuditOf, recordAudit } from '~/models/admin.server';
import { writeSetting } from '~/models/settings.server';
import { freshSetting } from './fresh-setting.server';
import type { User } from '~/models/users.server';
import { log } from '~/utils/logger.server';
import { parseWith } from '~/utils/validation.server';
import { withProviderPlans } from './billing/provider-plans.server';

/**
 * The plans as the operator set them (ADR 0055): the one way server code reads prices and plan
 * limits. Stored as JSON in `settings` under `plans`; what is missing there is the product's
 * default. Each process keeps what it read for at most PLANS_FRESH_MS, so a change saved on one
 * web process or node reaches every other within that time, without a restart and without a
 * message that could be lost (the one read a second costs less than a Redis subscription).
 */
export const PLANS_KEY = 'plans';

/** What an operator may set: every limit within the product's hard maxima, no price below a cent. */
const planLimitsSchema = z.object({
  topics: z.number().int().min(1).max(MAX_TOPICS),
  lessonsPerTopic: z.number().int().min(1).max(MAX_LESSONS_PER_TOPIC),
  documents: z.boolean(),
  pastedChars: z.number().int().min(0).max(MAX_PLAN_PASTED_CHARS),
  tutorQuestionsPerDay: z.number().int().min(1).max(MAX_TUTOR_QUESTIONS_PER_DAY),
  // In the pages' order, each once, whatever order a hand edit stored them in.
  exports: z
    .array(z.enum(COURSE_EXPORT_FORMATS))
    .transform((formats) => COURSE_EXPORT_FORMATS.filter((format) => formats.includes(format))),
});
const providerPriceSchema = z.object({
  amountCents: z.number().int().min(1).max(MAX_PRICE_CENTS),
  currency: z.enum(CURRENCIES),
  planId: z.string().min(1).max(100).optional(),
});
const paidPlanSchema = planLimitsSchema.extend({
  trialDays: z.number().int().min(0).max(MAX_TRIAL_DAYS),
  prices: z.object({ paypal: providerPriceSchema, razorpay: providerPriceSchema }),
});
export const planSettingsSchema: z.ZodType<PlanSettings> = z.object({
  free: planLimitsSchema,
  monthly: paidPlanSchema,
  yearly: paidPlanSchema,
});
const PLANS_FRESH_MS = 1_000;

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null;

/**
 * A paid plan's prices as stored: ADR 0055's one `amountCents` (USD at every provider) became a
 * price and currency per provider (ADR 0063); a row or audit entry of the earlier shape reads as
 * that price at both.
 */
function pricesOf(id: PaidPlanId, plan: Record<string, unknown>) {
  const fallback =
    typeof plan.amountCents === 'number'
      ? { amountCents: plan.amountCents, currency: 'USD' }
      : undefined;
  const stored = isObject(plan.prices) ? plan.prices : {};
  return Object.fromEntries(
    PAYMENT_PROVIDERS.map((provider) => [
      provider,
      {
        ...DEFAULT_PLAN_SETTINGS[id].prices[provider],
        ...fallback,
        ...(isObject(stored[provider]) ? stored[provider] : {}),
      },
    ]),
  );
}

/** Stored settings over the defaults, plan by plan and field by field. */
function withDefaults(stored: unknown): PlanSettings {
  const given = isObject(stored) ? stored : {};
  const merged = Object.fromEntries(
    PLAN_IDS.map((id) => {
      const plan = isObject(given[id]) ? given[id] : {};
      const { amountCents: _old, ...rest } = plan;
      return [
        id,
        id === 'free'
          ? { ...DEFAULT_PLAN_SETTINGS[id], ...rest }
          : { ...DEFAULT_PLAN_SETTINGS[id], ...rest, prices: pricesOf(id, plan) },
      ];
    }),
  );
  const parsed = planSettingsSchema.safeParse(merged);
  if (parsed.success) return parsed.data;
  // Only a hand edit of the row gets here: the settings page saves nothing invalid.
  log.error('plans.invalid_settings', { issues: parsed.error.issues.map((i) => i.message) });
  return DEFAULT_PLAN_SETTINGS;
}

const stored = freshSetting(PLANS_KEY, PLANS_FRESH_MS, (value) => {
  const settings = withDefaults(value);
  return { settings, table: planTable(settings) };
});
const load = () => stored.read();

/** Every plan as set now. */
export async function plans(): Promise<PlanTable> {
  return (await load()).table;
}

/** One plan as set now: the member's, a checkout's. */
export async function planOf(id: PlanId): Promise<PlanDefinition> {
  return (await load()).table[id];
}

/** The settings behind `plans()`, for the settings page. */
export async function planSettings(): Promise<PlanSettings> {
  return (await load()).settings;
}

/** Forgets what this process read: the next `plans()` reads the database. */
export function forgetPlans() {
  stored.forget();
}

const PLAN_SETTINGS_MESSAGES = {
  saved: 'Plans saved',
  rolledBack: 'Plans rolled back',
  noSuchChange: 'No such change of the plans',
  mainAdminOnly: 'Not Found',
  price: (label: string) =>
    `${label} must be an amount between 0.01 and ${(MAX_PRICE_CENTS / 100).toLocaleString('en-US')}`,
  currency: (label: string) => `${label} must be one of ${CURRENCIES.join(', ')}`,
  trial: (label: string) =>
    `${label} trial must be a whole number of days from 0 to ${MAX_TRIAL_DAYS}`,
  topics: (label: string) => `${label} topics must be a whole number from 1 to ${MAX_TOPICS}`,
  lessons: (label: string) =>
    `${label} lessons per topic must be a whole number from 1 to ${MAX_LESSONS_PER_TOPIC}`,
  tutor: (label: string) =>
    `${label} tutor questions a day must be a whole number from 1 to ${MAX_TUTOR_QUESTIONS_PER_DAY.toLocaleString('en-US')}`,
  pasted: (label: string) =>
    `${label} pasted characters must be a whole number from 0 to ${MAX_PLAN_PASTED_CHARS.toLocaleString('en-US')}`,
} as const;

const LABELS = { free: 'Free Plan', monthly: 'Monthly Plan', yearly: 'Yearly Plan' } as const;
/** The form's names for a provider's fields: `monthlyPrice` is PayPal's, `monthlyRazorpayPrice`... */
const FIELD_PREFIX: Record<PaymentProvider, string> = { paypal: '', razorpay: 'Razorpay' };
const PRICE_LABEL: Record<PaymentProvider, string> = {
  paypal: 'price',
  razorpay: 'Razorpay price',
};

/** '12', '12.5', '12.50' as cents; anything else (negative, three decimals, words) fails. */
const price = (label: string) =>
  z
    .string({ error: PLAN_SETTINGS_MESSAGES.price(label) })
    .trim()
    .regex(/^\d{1,7}(\.\d{1,2})?$/, PLAN_SETTINGS_MESSAGES.price(label))
    .transform((value) => Math.round(Number(value) * 100))
    .refine((cents) => cents >= 1 && cents <= MAX_PRICE_CENTS, PLAN_SETTINGS_MESSAGES.price(label));
const wholeNumber = (message: string, min: number, max: number) =>
  z
    .string({ error: message })
    .trim()
    .regex(/^\d{1,7}$/, message)
    .transform(Number)
    .refine((n) => n >= min && n <= max, message);
const limits = (id: PlanId) => ({
  [`${id}Topics`]: wholeNumber(PLAN_SETTINGS_MESSAGES.topics(LABELS[id]), 1, MAX_TOPICS),
  [`${id}PastedChars`]: wholeNumber(
    PLAN_SETTINGS_MESSAGES.pasted(LABELS[id]),
    0,
    MAX_PLAN_PASTED_CHARS,
  ),
  // Optional: a client that predates the field keeps what is set.
  [`${id}LessonsPerTopic`]: wholeNumber(
    PLAN_SETTINGS_MESSAGES.lessons(LABELS[id]),
    1,
    MAX_LESSONS_PER_TOPIC,
  ).optional(),
  [`${id}TutorQuestions`]: wholeNumber(
    PLAN_SETTINGS_MESSAGES.tutor(LABELS[id]),
    1,
    MAX_TUTOR_QUESTIONS_PER_DAY,
  ).optional(),
});
/**
 * A paid plan's prices and trial. PayPal's price is required (the form always had it); a currency,
 * a Razorpay price or a trial left out keeps what is set, so a client that knows only the price
 * changes only the price.
 */
const paidFields = (id: PaidPlanId) => ({
  ...Object.fromEntries(
    PAYMENT_PROVIDERS.flatMap((provider) => {
      const label = `${LABELS[id]} ${PRICE_LABEL[provider]}`;
      const field = `${id}${FIELD_PREFIX[provider]}`;
      const amount = price(label);
      return [
        [`${field}Price`, provider === 'paypal' ? amount : amount.optional()],
        [
          `${field}Currency`,
          z
            .string({ error: PLAN_SETTINGS_MESSAGES.currency(`${label} currency`) })
            .trim()
            .toUpperCase()
            .refine(isCurrency, PLAN_SETTINGS_MESSAGES.currency(`${label} currency`))
            .optional(),
        ],
      ];
    }),
  ),
  [`${id}TrialDays`]: wholeNumber(
    PLAN_SETTINGS_MESSAGES.trial(LABELS[id]),
    0,
    MAX_TRIAL_DAYS,
  ).optional(),
});

/** The settings page's form: prices and a trial per paid plan, and each plan's limits. */
const planForm = z
  .object({
    ...paidFields('monthly'),
    ...paidFields('yearly'),
    ...limits('free'),
    ...limits('monthly'),
    ...limits('yearly'),
  })
  .passthrough();

const ticked = (value: unknown) => value === 'on' || value === 'true';

function fromForm(form: Record<string, unknown>, current: PlanSettings): Result<PlanSettings> {
  const parsed = parseWith(planForm, form);
  if (!parsed.ok) return parsed;
  const value = parsed.value as Record<string, unknown>;
  const limitsOf = (id: PlanId) => ({
    topics: value[`${id}Topics`] as number,
    pastedChars: value[`${id}PastedChars`] as number,
    lessonsPerTopic:
      (value[`${id}LessonsPerTopic`] as number | undefined) ?? current[id].lessonsPerTopic,
    tutorQuestionsPerDay:
      (value[`${id}TutorQuestions`] as number | undefined) ?? current[id].tutorQuestionsPerDay,
    // Checkboxes: sent when ticked.
    documents: ticked(form[`${id}Documents`]),
    // A form without the download boxes (a client that predates them) keeps what is set.
    exports:
      form[`${id}ExportsShown`] === undefined
        ? current[id].exports
        : COURSE_EXPORT_FORMATS.filter((format) => ticked(form[`${id}Export-${format}`])),
  });
  const paidOf = (id: PaidPlanId) => {
    const set = current[id];
    const prices = Object.fromEntries(
      PAYMENT_PROVIDERS.map((provider) => {
        const field = `${id}${FIELD_PREFIX[provider]}`;
        const was = set.prices[provider];
        return [
          provider,
          {
            ...was,
            amountCents: (value[`${field}Price`] as number | undefined) ?? was.amountCents,
            currency: (value[`${field}Currency`] as Currency | undefined) ?? was.currency,
          },
        ];
      }),
    ) as PlanSettings[PaidPlanId]['prices'];
    return {
      ...limitsOf(id),
      trialDays: (value[`${id}TrialDays`] as number | undefined) ?? set.trialDays,
      prices,
    };
  };
  return ok({ free: limitsOf('free'), monthly: paidOf('monthly'), yearly: paidOf('yearly') });
}

/**
 * Saves the plans from the settings page: the main admin only (anyone else is told there is no
 * such page), validated against the product's hard maxima, each new price created as a plan at
 * its provider first (ADR 0063: a provider that refuses leaves the settings as they were), and
 * audited with the settings before and after, so the change can be read and undone from its
 * audit entry.
 */
export async function savePlanSettings(
  actor: User,
  form: Record<string, unknown>,
): Promise<Result<{ message: string }>> {
  if (!isMainAdminRole(actor.role)) return fail(PLAN_SETTINGS_MESSAGES.mainAdminOnly, 404);
  forgetPlans();
  const before = await planSettings();
  const next = fromForm(form, before);
  if (!next.ok) return next;
  const priced = await withProviderPlans(before, next.value);
  if (!priced.ok) return priced;
  await replacePlans(actor, 'save-plans', priced.value);
  return ok({ message: PLAN_SETTINGS_MESSAGES.saved });
}

/** Both kinds of change to the plans the audit log holds, each with the settings before and after. */
const PLAN_ACTIONS = ['save-plans', 'rollback-plans'];

async function replacePlans(
  actor: User,
  action: (typeof PLAN_ACTIONS)[number],
  after: PlanSettings,
  extra: Record<string, unknown> = {},
) {
  forgetPlans();
  const before = await planSettings();
  await writeSetting(PLANS_KEY, JSON.stringify(after));
  forgetPlans();
  await recordAudit(actor, action, JSON.stringify({ before, after, ...extra }));
}

export interface PlanChange {
  id: number;
  action: string;
  actorEmail: string;
  at: string;
  before: PlanSettings;
  after: PlanSettings;
}

/** The latest changes to the plans, newest first, for the settings page. */
export async function planChanges(limit = 10): Promise<PlanChange[]> {
  const rows = await listAuditOf(PLAN_ACTIONS, limit);
  return rows.flatMap((row) => {
    const change = changeOf(row.detail);
    return change
      ? [
          {
            id: row.id,
            action: row.action,
            actorEmail: row.actorEmail,
            at: row.createdAt.toISOString(),
            ...change,
          },
        ]
      : [];
  });
}

function changeOf(detail: string): { before: PlanSettings; after: PlanSettings } | null {
  try {
    const parsed = JSON.parse(detail) as { before?: unknown; after?: unknown };
    return { before: withDefaults(parsed.before), after: withDefaults(parsed.after) };
  } catch {
    return null;
  }
}

/**
 * Rolls a change of the plans back from its audit entry: the plans become what they were before
 * it. The rollback is itself a change in the audit log, so it can be rolled back in turn.
 */
export async function rollBackPlanChange(
  actor: User,
  auditId: unknown,
): Promise<Result<{ message: string }>> {
  if (!isMainAdminRole(actor.role)) return fail(PLAN_SETTINGS_MESSAGES.mainAdminOnly, 404);
  const id = Number(auditId);
  const entry = Number.isSafeInteger(id) && id > 0 ? await getAuditEntry(id) : undefined;
  const change = entry && PLAN_ACTIONS.includes(entry.action) ? changeOf(entry.detail) : null;
  if (!change) return fail(PLAN_SETTINGS_MESSAGES.noSuchChange, 404);
  await replacePlans(actor, 'rollback-plans', change.before, { of: id });
  return ok({ message: PLAN_SETTINGS_MESSAGES.rolledBack });
}

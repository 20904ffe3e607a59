import { z } from 'zod';
import {
  DEFAULT_PLAN_SETTINGS,
  MAX_PLAN_PASTED_CHARS,
  MAX_PRICE_CENTS,
  MAX_TOPICS,
  PLAN_IDS,
  planTable,
  type PlanDefinition,
  type PlanId,
  type PlanSettings,
  type PlanTable,
} from '~/domain/plans';
import { fail, ok, type Result } from '~/domain/result';
import { isMainAdminRole } from '~/domain/roles';
import { getAuditEntry, listAuditOf, recordAudit } from '~/models/admin.server';
import { readSetting, writeSetting } from '~/models/settings.server';
import type { User } from '~/models/users.server';
import { log } from '~/utils/logger.server';
import { parseWith } from '~/utils/validation.server';

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
  documents: z.boolean(),
  pastedChars: z.number().int().min(0).max(MAX_PLAN_PASTED_CHARS),
});
const paidPlanSchema = planLimitsSchema.extend({
  amountCents: z.number().int().min(1).max(MAX_PRICE_CENTS),
});
export const planSettingsSchema: z.ZodType<PlanSettings> = z.object({
  free: planLimitsSchema,
  monthly: paidPlanSchema,
  yearly: paidPlanSchema,
});
const PLANS_FRESH_MS = 1_000;

let cached: { settings: PlanSettings; table: PlanTable; readAt: number } | null = null;

/** Stored settings over the defaults, plan by plan and field by field. */
function withDefaults(stored: unknown): PlanSettings {
  const given = (typeof stored === 'object' && stored !== null ? stored : {}) as Record<
    string,
    unknown
  >;
  const merged = Object.fromEntries(
    PLAN_IDS.map((id) => {
      const plan = given[id];
      return [id, { ...DEFAULT_PLAN_SETTINGS[id], ...(typeof plan === 'object' ? plan : {}) }];
    }),
  );
  const parsed = planSettingsSchema.safeParse(merged);
  if (parsed.success) return parsed.data;
  // Only a hand edit of the row gets here: the settings page saves nothing invalid.
  log.error('plans.invalid_settings', { issues: parsed.error.issues.map((i) => i.message) });
  return DEFAULT_PLAN_SETTINGS;
}

async function load() {
  if (cached && Date.now() - cached.readAt < PLANS_FRESH_MS) return cached;
  const row = await readSetting(PLANS_KEY);
  let stored: unknown = null;
  try {
    stored = row ? JSON.parse(row.value) : null;
  } catch {
    log.error('plans.unreadable_settings', {});
  }
  const settings = withDefaults(stored);
  cached = { settings, table: planTable(settings), readAt: Date.now() };
  return cached;
}

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
  cached = null;
}

const PLAN_SETTINGS_MESSAGES = {
  saved: 'Plans saved',
  rolledBack: 'Plans rolled back',
  noSuchChange: 'No such change of the plans',
  mainAdminOnly: 'Not Found',
  price: (label: string) =>
    `${label} price must be an amount between 0.01 and ${(MAX_PRICE_CENTS / 100).toLocaleString('en-US')}`,
  topics: (label: string) => `${label} topics must be a whole number from 1 to ${MAX_TOPICS}`,
  pasted: (label: string) =>
    `${label} pasted characters must be a whole number from 0 to ${MAX_PLAN_PASTED_CHARS.toLocaleString('en-US')}`,
} as const;

const LABELS = { free: 'Free Plan', monthly: 'Monthly Plan', yearly: 'Yearly Plan' } as const;

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
});

/** The settings page's form: a price per paid plan, and each plan's limits. */
const planForm = z
  .object({
    monthlyPrice: price(LABELS.monthly),
    yearlyPrice: price(LABELS.yearly),
    ...limits('free'),
    ...limits('monthly'),
    ...limits('yearly'),
  })
  .passthrough();

function fromForm(form: Record<string, unknown>): Result<PlanSettings> {
  const parsed = parseWith(planForm, form);
  if (!parsed.ok) return parsed;
  const value = parsed.value as Record<string, unknown>;
  const limitsOf = (id: PlanId) => ({
    topics: value[`${id}Topics`] as number,
    pastedChars: value[`${id}PastedChars`] as number,
    // A checkbox: sent when ticked.
    documents: form[`${id}Documents`] === 'on' || form[`${id}Documents`] === 'true',
  });
  return ok({
    free: limitsOf('free'),
    monthly: { ...limitsOf('monthly'), amountCents: value.monthlyPrice as number },
    yearly: { ...limitsOf('yearly'), amountCents: value.yearlyPrice as number },
  });
}

/**
 * Saves the plans from the settings page: the main admin only (anyone else is told there is no
 * such page), validated against the product's hard maxima, and audited with the settings before
 * and after, so the change can be read and undone from its audit entry.
 */
export async function savePlanSettings(
  actor: User,
  form: Record<string, unknown>,
): Promise<Result<{ message: string }>> {
  if (!isMainAdminRole(actor.role)) return fail(PLAN_SETTINGS_MESSAGES.mainAdminOnly, 404);
  const next = fromForm(form);
  if (!next.ok) return next;
  await replacePlans(actor, 'save-plans', next.value);
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

import type { CourseType, Plan } from '../../db/schema';

/**
 * The three membership plans and every limit that depends on them. What an operator may change
 * (prices, and each plan's topics, documents and pasted characters: ADR 0055) is stored in the
 * database as `PlanSettings`; `planTable(settings)` turns it into the definitions the pages,
 * payments and course creation use. Server code reads the table through `plans()` of
 * app/services/plans.server.ts, pages get it from their loader. `DEFAULT_PLANS` are the product's
 * own values, used until an operator saves others. Browser-safe: no server imports.
 */
export type PlanId = Plan;
export type PaidPlanId = Exclude<PlanId, 'free'>;
export const PLAN_IDS = ['free', 'monthly', 'yearly'] as const satisfies readonly PlanId[];

interface PlanFeature {
  text: string;
  /** False for what the plan does not include; the card shows it struck out. */
  included: boolean;
}

export interface PlanDefinition {
  id: PlanId;
  /** 'Free Plan', 'Monthly Plan', 'Yearly Plan'. */
  name: string;
  /** The price in dollars, as the cards show it (8, 12.5). */
  cost: number;
  /** The same price in cents, for payments and revenue sums. */
  amountCents: number;
  currency: 'USD';
  /** Billing period; null for the free plan (no period). */
  period: 'month' | 'year' | null;
  /** Exactly five lines, in card order. */
  features: readonly [PlanFeature, PlanFeature, PlanFeature, PlanFeature, PlanFeature];
  /** What course creation allows on this plan. */
  limits: {
    /** Topic-count choices offered on /create (5 for free, 5 or 10 for paid). */
    topicCounts: readonly number[];
    courseTypes: readonly CourseType[];
    /**
     * A course from the member's own material (ADR 0032): whether documents may be attached,
     * and how many characters of text may be pasted.
     */
    material: { documents: boolean; pastedChars: number };
  };
}

/** Every plan, by id: what `plans()` answers. */
export type PlanTable = { readonly [K in PlanId]: PlanDefinition & { id: K } };

/** The product's hard maxima: no setting goes past them (the AI's prompts and /create are built for them). */
export const MAX_TOPICS = 10;
export const MAX_PLAN_PASTED_CHARS = 100_000;
/** The highest price a plan may be given, in cents (10,000.00). */
export const MAX_PRICE_CENTS = 1_000_000;

/** What an operator sets per plan: its course-creation limits, and a paid plan's price. */
type PlanLimits = {
  topics: number;
  documents: boolean;
  pastedChars: number;
};
type PaidPlanLimits = PlanLimits & { amountCents: number };
/** The plans as the settings hold them (checked by the server's schema, plans.server.ts). */
export type PlanSettings = {
  free: PlanLimits;
  monthly: PaidPlanLimits;
  yearly: PaidPlanLimits;
};

/** The product's own plans: Free (5 topics), Monthly 8 USD and Yearly 88 USD (10 topics). */
export const DEFAULT_PLAN_SETTINGS: PlanSettings = {
  free: { topics: 5, documents: false, pastedChars: 20_000 },
  monthly: { amountCents: 800, topics: 10, documents: true, pastedChars: 100_000 },
  yearly: { amountCents: 8800, topics: 10, documents: true, pastedChars: 100_000 },
};

export const PLAN_NAMES = {
  free: 'Free Plan',
  monthly: 'Monthly Plan',
  yearly: 'Yearly Plan',
} as const satisfies Record<PlanId, string>;

/** A plan's name: names are the API's contract (`type`), so they are not a setting. */
export const planName = (id: PlanId): string => PLAN_NAMES[id];

const included = (text: string): PlanFeature => ({ text, included: true });
const excluded = (text: string): PlanFeature => ({ text, included: false });

/** The topic counts /create offers up to `most`: the product's 5 and 10, and `most` itself. */
function topicCountsUpTo(most: number): number[] {
  return [...new Set([...[5, 10].filter((count) => count < most), most])].sort((a, b) => a - b);
}

const PERIOD_ACCESS = { month: '1 Month Access', year: '1 Year Access' } as const;

function paidPlan<K extends PaidPlanId>(
  id: K,
  period: 'month' | 'year',
  set: PlanSettings[K],
): PlanDefinition & { id: K } {
  return {
    id,
    name: PLAN_NAMES[id],
    cost: set.amountCents / 100,
    amountCents: set.amountCents,
    currency: 'USD',
    period,
    features: [
      included(`Generate ${set.topics} Sub-Topics`),
      included(PERIOD_ACCESS[period]),
      included('Theory & Image Course'),
      included('Create Unlimited Course'),
      included('Video & Theory Course'),
    ],
    limits: {
      topicCounts: topicCountsUpTo(set.topics),
      courseTypes: ['text', 'video'],
      material: { documents: set.documents, pastedChars: set.pastedChars },
    },
  };
}

/** The plans as `settings` make them. */
export function planTable(settings: PlanSettings): PlanTable {
  return {
    free: {
      id: 'free',
      name: PLAN_NAMES.free,
      cost: 0,
      amountCents: 0,
      currency: 'USD',
      period: null,
      features: [
        included(`Generate ${settings.free.topics} Sub-Topics`),
        included('Lifetime access'),
        included('Theory & Image Course'),
        included('Create Unlimited Course'),
        excluded('Video & Theory Course'),
      ],
      limits: {
        topicCounts: topicCountsUpTo(settings.free.topics),
        courseTypes: ['text'],
        material: {
          documents: settings.free.documents,
          pastedChars: settings.free.pastedChars,
        },
      },
    },
    monthly: paidPlan('monthly', 'month', settings.monthly),
    yearly: paidPlan('yearly', 'year', settings.yearly),
  };
}

/** The product's own plans, before any operator's settings. */
export const DEFAULT_PLANS: PlanTable = planTable(DEFAULT_PLAN_SETTINGS);

/** In card order: free, monthly, yearly. */
export const planList = (table: PlanTable): PlanDefinition[] => PLAN_IDS.map((id) => table[id]);

/**
 * Flashcards with spaced repetition (ADR 0033) are part of every plan: each lesson a member
 * studies gets its deck, whatever they pay. The server checks this list before writing, showing
 * or grading cards, so taking a plan out of it is enough to withhold them.
 */
export const FLASHCARD_PLANS: readonly PlanId[] = ['free', 'monthly', 'yearly'];
export const flashcardsIncluded = (plan: PlanId) => FLASHCARD_PLANS.includes(plan);

export function isPaidPlan(value: unknown): value is PaidPlanId {
  return value === 'monthly' || value === 'yearly';
}

/** SCORM 1.2 packages for an LMS (ADR 34): a paid-plan feature, refused with PAID_ONLY_MESSAGE. */
export const canExportScorm = (plan: PlanId): boolean => isPaidPlan(plan);

/** '$8', '$12.50': whole dollars without cents, as the cards show them. */
export const formatDollars = (cents: number): string =>
  `$${cents % 100 === 0 ? cents / 100 : (cents / 100).toFixed(2)}`;

/** '$8 / month', '$88 / year', '$0'. */
export function formatPlanPrice(plan: PlanDefinition): string {
  const price = formatDollars(plan.amountCents);
  return plan.period ? `${price} / ${plan.period}` : price;
}

/**
 * A member's plan as the API calls it (the spec's `type`): 'free', or the paid plan's name
 * ('Monthly Plan', 'Yearly Plan'), which the API's clients show as it is.
 */
export const MEMBER_TYPES = ['free', 'Monthly Plan', 'Yearly Plan'] as const;
export type MemberType = (typeof MEMBER_TYPES)[number];

export function memberType(plan: PlanId): MemberType {
  return plan === 'free' ? 'free' : PLAN_NAMES[plan];
}

/** A paid plan as an API client may name it: its id ('monthly') or its name ('Monthly Plan'). */
export function paidPlanNamed(value: unknown): PaidPlanId | null {
  if (typeof value !== 'string') return null;
  const wanted = value.trim().toLowerCase();
  const found = PLAN_IDS.find(
    (id) => id !== 'free' && (id === wanted || PLAN_NAMES[id].toLowerCase() === wanted),
  );
  return found && isPaidPlan(found) ? found : null;
}

export interface PlanButton {
  label: 'Get Started' | 'Modify Plan';
  to: string;
}

/**
 * The pricing card's button: visitors and free members get
 * 'Get Started' to the checkout for that plan; paid members 'Modify Plan' to
 * their subscription. On the free card, 'Get Started' means signing up
 * (visitors) or creating a course (free members): there is nothing to pay.
 */
export function planButton(plan: PlanId, member: { plan: PlanId } | null): PlanButton {
  if (member && isPaidPlan(member.plan)) return { label: 'Modify Plan', to: '/subscription' };
  if (plan === 'free') return { label: 'Get Started', to: member ? '/create' : '/signup' };
  return { label: 'Get Started', to: `/payment?plan=${plan}` };
}

/** The product's course-creation messages. */
export const PAID_ONLY_MESSAGE = 'For paid members only';
export const MAX_SUBTOPICS_MESSAGE = 'You can only add 5 sub topics';
/** What the pages say when the member's hourly AI allowance is used up. */
export const AI_ALLOWANCE_MESSAGE =
  'You have generated a lot of courses this hour. Please try again later.';

/** The most sub-topics a member may type on /create (the product's five inputs). */
export const MAX_MEMBER_SUBTOPICS = 5;
/** The topic counts /create offers: every count some plan allows, smallest first. */
export const topicCountChoices = (table: PlanTable): number[] =>
  [...new Set(planList(table).flatMap((plan) => plan.limits.topicCounts))].sort((a, b) => a - b);
/** The most topics a plan allows. */
export const mostTopics = (plan: PlanDefinition): number => Math.max(...plan.limits.topicCounts);
export const MAX_LESSONS_PER_TOPIC = 6;
/** Sub-topics the AI writes per topic (its outline prompt asks for 2 to 4). */
export const AI_LESSONS_PER_TOPIC = 4;

/** Lessons the AI may write for one course on a plan: its most topics × AI_LESSONS_PER_TOPIC. */
export function aiLessonLimit(plan: PlanDefinition): number {
  return mostTopics(plan) * AI_LESSONS_PER_TOPIC;
}

export const aiLessonLimitMessage = (limit: number) =>
  `The AI writes at most ${limit} lessons of a course on your plan`;

export const COURSE_TYPE_LABELS = {
  text: 'Theory & Image Course',
  video: 'Video & Theory Course',
} as const;

/**
 * The one plan rule for a course request, whether it comes from /create or
 * from an API client's content: no more topics than the plan allows, only
 * the plan's course types, and no more lessons for the AI to write than
 * `aiLessonLimit`. Null when allowed, else the product's message.
 */
export function planRefusal(
  plan: PlanDefinition,
  request: { topicCount: number; type: CourseType; aiLessons?: number },
): string | null {
  const { limits } = plan;
  const typeAllowed = limits.courseTypes.includes(request.type);
  if (request.topicCount > mostTopics(plan) || !typeAllowed) return PAID_ONLY_MESSAGE;
  const limit = aiLessonLimit(plan);
  return (request.aiLessons ?? 0) > limit ? aiLessonLimitMessage(limit) : null;
}

/** What a change of the plans changed, one line per field: 'Monthly Plan price: $8 → $12'. */
export function describePlanChange(before: PlanSettings, after: PlanSettings): string[] {
  const lines: string[] = [];
  for (const id of PLAN_IDS) {
    const was: Record<string, unknown> = before[id];
    const now: Record<string, unknown> = after[id];
    for (const [field, label] of [
      ['amountCents', 'price'],
      ['topics', 'topics'],
      ['pastedChars', 'pasted characters'],
      ['documents', 'documents'],
    ] as const) {
      if (!(field in now) || was[field] === now[field]) continue;
      const show = (value: unknown) =>
        field === 'amountCents'
          ? formatDollars(Number(value))
          : typeof value === 'boolean'
            ? value
              ? 'yes'
              : 'no'
            : Number(value).toLocaleString('en-US');
      lines.push(`${PLAN_NAMES[id]} ${label}: ${show(was[field])} → ${show(now[field])}`);
    }
  }
  return lines;
}

import type { CourseType, PaymentProvider, Plan } from '../../db/schema';

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
  /** The headline price (PayPal's) in its currency's units, as the cards show it (8, 12.5). */
  cost: number;
  /** The same price in cents (the currency's hundredths). */
  amountCents: number;
  currency: Currency;
  /** What each provider's checkout charges (ADR 0063): USD on PayPal, INR on Razorpay... */
  prices: Record<PaymentProvider, Price>;
  /** Days free before the first charge, through the provider's own trial (0: none). */
  trialDays: number;
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
    /** Questions a member may ask the tutor per day (a window that starts at the first). */
    tutorQuestionsPerDay: number;
    /** Lessons the AI gives each topic of an outline, and the most an edited topic may have. */
    lessonsPerTopic: number;
    /** The course downloads the plan includes (the member's data export is everyone's: ADR 0060). */
    exports: readonly CourseExportFormat[];
  };
}

/** Every plan, by id: what `plans()` answers. */
export type PlanTable = { readonly [K in PlanId]: PlanDefinition & { id: K } };

/** The product's hard maxima: no setting goes past them (the AI's prompts and /create are built for them). */
export const MAX_TOPICS = 10;
export const MAX_PLAN_PASTED_CHARS = 100_000;
export const MAX_TUTOR_QUESTIONS_PER_DAY = 1_000;
/** The most lessons a topic may have, written by the AI or sent by an API client. */
export const MAX_LESSONS_PER_TOPIC = 6;
/** The lessons the AI gives a topic unless the plan says otherwise (its prompt asks for 2 to 4). */
export const DEFAULT_LESSONS_PER_TOPIC = 4;
/** The highest price a plan may be given, in cents (10,000.00). */
export const MAX_PRICE_CENTS = 1_000_000;

/**
 * The currencies a price may be set in: two-decimal currencies both PayPal and Razorpay charge in
 * (a zero-decimal one such as JPY would need its own rounding at PayPal).
 */
export const CURRENCIES = ['USD', 'EUR', 'GBP', 'INR', 'AUD', 'CAD', 'SGD'] as const;
export type Currency = (typeof CURRENCIES)[number];
export const isCurrency = (value: unknown): value is Currency =>
  CURRENCIES.includes(value as Currency);

/** A price at one provider: in cents (hundredths of the currency). */
type Price = { amountCents: number; currency: Currency };
/**
 * A price as the settings hold it: with the id of the provider plan that charges it, once the
 * settings page created one (ADR 0063); without, the provider plan id from the environment.
 */
export type ProviderPrice = Price & { planId?: string };

/** The most days a trial may last (PayPal's trial cycle takes up to 365 days). */
export const MAX_TRIAL_DAYS = 365;

/**
 * The course downloads a plan may include: Markdown, PDF and the SCORM package for an LMS
 * (ADR 34), in the order the pages offer them.
 */
export const COURSE_EXPORT_FORMATS = ['md', 'pdf', 'scorm'] as const;
export type CourseExportFormat = (typeof COURSE_EXPORT_FORMATS)[number];
export const COURSE_EXPORT_LABELS = {
  md: 'Markdown',
  pdf: 'PDF',
  scorm: 'SCORM (LMS)',
} as const satisfies Record<CourseExportFormat, string>;

/** What an operator sets per plan: its course-creation limits, and a paid plan's prices. */
type PlanLimits = {
  topics: number;
  lessonsPerTopic: number;
  documents: boolean;
  pastedChars: number;
  tutorQuestionsPerDay: number;
  exports: CourseExportFormat[];
};
type PaidPlanLimits = PlanLimits & {
  trialDays: number;
  prices: Record<PaymentProvider, ProviderPrice>;
};
/** The plans as the settings hold them (checked by the server's schema, plans.server.ts). */
export type PlanSettings = {
  free: PlanLimits;
  monthly: PaidPlanLimits;
  yearly: PaidPlanLimits;
};

const usd = (amountCents: number): Record<PaymentProvider, ProviderPrice> => ({
  paypal: { amountCents, currency: 'USD' },
  razorpay: { amountCents, currency: 'USD' },
});

/** The product's own plans: Free (5 topics), Monthly 8 USD and Yearly 88 USD (10 topics), no trial. */
export const DEFAULT_PLAN_SETTINGS: PlanSettings = {
  free: {
    topics: 5,
    lessonsPerTopic: DEFAULT_LESSONS_PER_TOPIC,
    documents: false,
    pastedChars: 20_000,
    tutorQuestionsPerDay: 20,
    exports: ['md', 'pdf'],
  },
  monthly: {
    prices: usd(800),
    trialDays: 0,
    topics: 10,
    lessonsPerTopic: DEFAULT_LESSONS_PER_TOPIC,
    documents: true,
    pastedChars: 100_000,
    tutorQuestionsPerDay: 200,
    exports: ['md', 'pdf', 'scorm'],
  },
  yearly: {
    prices: usd(8800),
    trialDays: 0,
    topics: 10,
    lessonsPerTopic: DEFAULT_LESSONS_PER_TOPIC,
    documents: true,
    pastedChars: 100_000,
    tutorQuestionsPerDay: 200,
    exports: ['md', 'pdf', 'scorm'],
  },
};

/** The price a provider charges without its plan id (what the browser and the cards need). */
const priceOnly = ({ amountCents, currency }: Price): Price => ({ amountCents, currency });

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
  const headline = set.prices.paypal;
  return {
    id,
    name: PLAN_NAMES[id],
    cost: headline.amountCents / 100,
    amountCents: headline.amountCents,
    currency: headline.currency,
    prices: { paypal: priceOnly(set.prices.paypal), razorpay: priceOnly(set.prices.razorpay) },
    trialDays: set.trialDays,
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
      tutorQuestionsPerDay: set.tutorQuestionsPerDay,
      lessonsPerTopic: set.lessonsPerTopic,
      exports: set.exports,
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
      prices: {
        paypal: { amountCents: 0, currency: 'USD' },
        razorpay: { amountCents: 0, currency: 'USD' },
      },
      trialDays: 0,
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
        tutorQuestionsPerDay: settings.free.tutorQuestionsPerDay,
        lessonsPerTopic: settings.free.lessonsPerTopic,
        exports: settings.free.exports,
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

/**
 * Null when the plan includes the course download (ADR 0055; SCORM on the paid plans by default),
 * else why not: the product's paid-only message on the free plan, and a plain one on a paid plan
 * the operator left it out of (no upgrade is promised there).
 */
export function courseExportRefusal(
  plan: PlanDefinition,
  format: CourseExportFormat,
): string | null {
  if (plan.limits.exports.includes(format)) return null;
  return plan.id === 'free' ? PAID_ONLY_MESSAGE : 'Your plan does not include this download';
}

/** '$8', '$12.50', '₹699', '€10': whole units without cents, as the cards show them. */
export const formatPrice = (cents: number, currency: string = 'USD'): string =>
  new Intl.NumberFormat('en-US', {
    style: 'currency',
    currency,
    minimumFractionDigits: cents % 100 === 0 ? 0 : 2,
    maximumFractionDigits: 2,
  }).format(cents / 100);

/** '$8 / month', '₹699 / month', '$0': a provider's price, PayPal's by default. */
export function formatPlanPrice(
  plan: PlanDefinition,
  provider: PaymentProvider = 'paypal',
): string {
  const { amountCents, currency } = plan.prices[provider];
  const price = formatPrice(amountCents, currency);
  return plan.period ? `${price} / ${plan.period}` : price;
}

/** '7-day free trial', or null without one. */
export const trialText = (plan: Pick<PlanDefinition, 'trialDays'>): string | null =>
  plan.trialDays > 0 ? `${plan.trialDays}-day free trial` : null;

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
/** Lessons the AI may write for one course on a plan: its most topics × its lessons per topic. */
export function aiLessonLimit(plan: PlanDefinition): number {
  return mostTopics(plan) * plan.limits.lessonsPerTopic;
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

const PROVIDER_LABELS: Record<PaymentProvider, string> = { paypal: 'PayPal', razorpay: 'Razorpay' };

/**
 * What a change of the plans changed, one line per field: 'Monthly Plan price: $8 → $12' (PayPal's,
 * the headline), 'Monthly Plan Razorpay price: $8 → ₹699', 'Monthly Plan trial days: 0 → 7'.
 */
export function describePlanChange(before: PlanSettings, after: PlanSettings): string[] {
  const lines: string[] = [];
  for (const id of PLAN_IDS) {
    const was = flatten(before[id]);
    const now = flatten(after[id]);
    for (const [field, label] of [
      ['paypal', 'price'],
      ['razorpay', `${PROVIDER_LABELS.razorpay} price`],
      ['trialDays', 'trial days'],
      ['topics', 'topics'],
      ['pastedChars', 'pasted characters'],
      ['documents', 'documents'],
      ['tutorQuestionsPerDay', 'tutor questions a day'],
      ['lessonsPerTopic', 'lessons per topic'],
      ['exports', 'downloads'],
    ] as const) {
      if (!(field in now) || was[field] === now[field]) continue;
      const show = (value: unknown) =>
        typeof value === 'string'
          ? value
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

/** 'Markdown, PDF', or 'none'. */
const exportList = (formats: readonly CourseExportFormat[]) =>
  formats.map((format) => COURSE_EXPORT_LABELS[format]).join(', ') || 'none';

/** A plan's settings as comparable values: each provider's price as its text ('$8', '₹699'). */
function flatten(plan: PlanSettings[PlanId]): Record<string, unknown> {
  const { prices, exports, ...rest } = plan as Partial<PaidPlanLimits> & PlanLimits;
  return {
    ...rest,
    exports: exportList(exports),
    ...(prices
      ? {
          paypal: formatPrice(prices.paypal.amountCents, prices.paypal.currency),
          razorpay: formatPrice(prices.razorpay.amountCents, prices.razorpay.currency),
        }
      : {}),
  };
}

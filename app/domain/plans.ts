import type { CourseType, Plan } from '../../db/schema';

/**
 * The one definition of the three membership plans and of every limit that
 * depends on them. Pricing cards, the landing page, payments, course creation
 * (the /create page, the /api routes and the job processors) all read it, so a
 * price or a limit changes in one place. Browser-safe: no server imports.
 */
export type PlanId = Plan;
export type PaidPlanId = Exclude<PlanId, 'free'>;

export interface PlanFeature {
  text: string;
  /** False for what the plan does not include; the card shows it struck out. */
  included: boolean;
}

export interface PlanDefinition {
  id: PlanId;
  /** 'Free Plan', 'Monthly Plan', 'Yearly Plan'. */
  name: string;
  /** Whole US dollars, as the cards show them. */
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

const included = (text: string): PlanFeature => ({ text, included: true });
const excluded = (text: string): PlanFeature => ({ text, included: false });

export const PLAN_DEFINITIONS = {
  free: {
    id: 'free',
    name: 'Free Plan',
    cost: 0,
    amountCents: 0,
    currency: 'USD',
    period: null,
    features: [
      included('Generate 5 Sub-Topics'),
      included('Lifetime access'),
      included('Theory & Image Course'),
      included('Create Unlimited Course'),
      excluded('Video & Theory Course'),
    ],
    limits: {
      topicCounts: [5],
      courseTypes: ['text'],
      material: { documents: false, pastedChars: 20_000 },
    },
  },
  monthly: {
    id: 'monthly',
    name: 'Monthly Plan',
    cost: 8,
    amountCents: 800,
    currency: 'USD',
    period: 'month',
    features: [
      included('Generate 10 Sub-Topics'),
      included('1 Month Access'),
      included('Theory & Image Course'),
      included('Create Unlimited Course'),
      included('Video & Theory Course'),
    ],
    limits: {
      topicCounts: [5, 10],
      courseTypes: ['text', 'video'],
      material: { documents: true, pastedChars: 100_000 },
    },
  },
  yearly: {
    id: 'yearly',
    name: 'Yearly Plan',
    cost: 88,
    amountCents: 8800,
    currency: 'USD',
    period: 'year',
    features: [
      included('Generate 10 Sub-Topics'),
      included('1 Year Access'),
      included('Theory & Image Course'),
      included('Create Unlimited Course'),
      included('Video & Theory Course'),
    ],
    limits: {
      topicCounts: [5, 10],
      courseTypes: ['text', 'video'],
      material: { documents: true, pastedChars: 100_000 },
    },
  },
} as const satisfies Record<PlanId, PlanDefinition>;

/** In card order: free, monthly, yearly. */
export const PLAN_LIST: readonly PlanDefinition[] = [
  PLAN_DEFINITIONS.free,
  PLAN_DEFINITIONS.monthly,
  PLAN_DEFINITIONS.yearly,
];

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

export function getPlan(id: PlanId): PlanDefinition {
  return PLAN_DEFINITIONS[id];
}

/** '$8 / month', '$88 / year', '$0'. */
export function formatPlanPrice(plan: PlanDefinition): string {
  return plan.period ? `$${plan.cost} / ${plan.period}` : `$${plan.cost}`;
}

/**
 * A member's plan as the API calls it (the spec's `type`): 'free', or the paid plan's name
 * ('Monthly Plan', 'Yearly Plan'), which the API's clients show as it is.
 */
export const MEMBER_TYPES = ['free', 'Monthly Plan', 'Yearly Plan'] as const;
export type MemberType = (typeof MEMBER_TYPES)[number];

export function memberType(plan: PlanId): MemberType {
  return plan === 'free' ? 'free' : PLAN_DEFINITIONS[plan].name;
}

/** A paid plan as an API client may name it: its id ('monthly') or its name ('Monthly Plan'). */
export function paidPlanNamed(value: unknown): PaidPlanId | null {
  if (typeof value !== 'string') return null;
  const wanted = value.trim().toLowerCase();
  const found = PLAN_LIST.find(
    (plan) => plan.id !== 'free' && (plan.id === wanted || plan.name.toLowerCase() === wanted),
  );
  return found && isPaidPlan(found.id) ? found.id : null;
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
/** The topic counts /create offers: every count some plan allows (5 and 10), smallest first. */
export const TOPIC_COUNT_CHOICES: readonly number[] = [
  ...new Set(PLAN_LIST.flatMap((plan) => plan.limits.topicCounts)),
].sort((a, b) => a - b);
export const FREE_TOPIC_COUNT = PLAN_DEFINITIONS.free.limits.topicCounts[0]!;
/** The largest outline any plan allows, and the most lessons a topic of it may have. */
export const MAX_TOPICS = Math.max(...TOPIC_COUNT_CHOICES);
export const MAX_LESSONS_PER_TOPIC = 6;
/** Sub-topics the AI writes per topic (its outline prompt asks for 2 to 4). */
export const AI_LESSONS_PER_TOPIC = 4;

/** Lessons the AI may write for one course on a plan: its most topics × AI_LESSONS_PER_TOPIC. */
export function aiLessonLimit(plan: PlanId): number {
  return Math.max(...getPlan(plan).limits.topicCounts) * AI_LESSONS_PER_TOPIC;
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
  plan: PlanId,
  request: { topicCount: number; type: CourseType; aiLessons?: number },
): string | null {
  const { limits } = getPlan(plan);
  const typeAllowed = (limits.courseTypes as readonly CourseType[]).includes(request.type);
  if (request.topicCount > Math.max(...limits.topicCounts) || !typeAllowed)
    return PAID_ONLY_MESSAGE;
  const limit = aiLessonLimit(plan);
  return (request.aiLessons ?? 0) > limit ? aiLessonLimitMessage(limit) : null;
}

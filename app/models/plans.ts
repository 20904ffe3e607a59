import type { CourseType, Plan } from '../../db/schema';

/**
 * The one definition of the three membership plans. Pricing cards, the
 * landing page, payments and course creation all read it, so a price or a
 * limit changes in one place. Browser-safe: no server imports.
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
    limits: { topicCounts: [5], courseTypes: ['text'] },
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
    limits: { topicCounts: [5, 10], courseTypes: ['text', 'video'] },
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
    limits: { topicCounts: [5, 10], courseTypes: ['text', 'video'] },
  },
} as const satisfies Record<PlanId, PlanDefinition>;

/** In card order: free, monthly, yearly. */
export const PLAN_LIST: readonly PlanDefinition[] = [
  PLAN_DEFINITIONS.free,
  PLAN_DEFINITIONS.monthly,
  PLAN_DEFINITIONS.yearly,
];

export function isPlanId(value: unknown): value is PlanId {
  return value === 'free' || value === 'monthly' || value === 'yearly';
}

export function isPaidPlan(value: unknown): value is PaidPlanId {
  return value === 'monthly' || value === 'yearly';
}

export function getPlan(id: PlanId): PlanDefinition {
  return PLAN_DEFINITIONS[id];
}

/** '$8 / month', '$88 / year', '$0'. */
export function formatPlanPrice(plan: PlanDefinition): string {
  return plan.period ? `$${plan.cost} / ${plan.period}` : `$${plan.cost}`;
}

export interface PlanButton {
  label: 'Get Started' | 'Modify Plan';
  to: string;
}

/**
 * The pricing card's button (spec 4): visitors and free members get
 * 'Get Started' to the checkout for that plan; paid members 'Modify Plan' to
 * their subscription. On the free card, 'Get Started' means signing up
 * (visitors) or creating a course (free members): there is nothing to pay.
 */
export function planButton(plan: PlanId, member: { plan: PlanId } | null): PlanButton {
  if (member && isPaidPlan(member.plan)) return { label: 'Modify Plan', to: '/subscription' };
  if (plan === 'free') return { label: 'Get Started', to: member ? '/create' : '/signup' };
  return { label: 'Get Started', to: `/payment?plan=${plan}` };
}

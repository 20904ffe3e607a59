import type { BillingCustomer, PaymentProvider } from '../../../db/schema';
import type { Currency, PaidPlanId } from '~/domain/plans';

/**
 * What the billing service needs of a payment provider, whatever the provider:
 * start a subscription for a plan, read it back in one normalised shape,
 * cancel it and move it to another plan. PayPal implements it over its SDK
 * (paypal.server.ts); Razorpay joins behind the same interface. A provider reads no settings:
 * what the operator set (the brand's name) comes in with each call from the billing services.
 */
export type ProviderStatus = 'pending' | 'active' | 'suspended' | 'cancelled' | 'expired';

interface ProviderPayment {
  /** Unique per payment of this subscription (the provider's id, or its time). */
  key: string;
  /** Null when the provider's record does not say (Razorpay): the subscription's own price. */
  amountCents: number | null;
  /** Null with `amountCents`: the subscription's own currency. */
  currency: string | null;
  paidAt: Date;
}

export interface ProviderSubscription {
  provider: PaymentProvider;
  id: string;
  status: ProviderStatus;
  /** The paid plan whose configured provider plan id this subscription is on; null for any other. */
  plan: PaidPlanId | null;
  startedAt: Date | null;
  nextBillingAt: Date | null;
  lastPayment: ProviderPayment | null;
  /**
   * The provider's own object as its REST API gives it (PayPal's snake_case JSON, Razorpay's
   * subscription entity): what the API answers as "the provider subscription object".
   */
  raw: unknown;
}

interface ReturnUrls {
  returnUrl: string;
  cancelUrl: string;
}

export interface BillingProvider {
  readonly name: PaymentProvider;
  /** Whether the operator gave its credentials (or demo mode simulates it). */
  configured(): boolean;
  /**
   * The provider plan ids from the environment (PAYPAL_MONTHLY_PLAN_ID...; the mock's demo plans
   * in demo mode): what checkouts use until the settings page has created plans (ADR 0063).
   */
  fallbackPlanIds(): Partial<Record<PaidPlanId, string>>;
  /**
   * Creates a provider plan charging this price every period, after the trial; its id.
   * `brandName`: the brand's name now (ADR 0062), for what the provider shows of the plan.
   */
  createPlan(input: PlanTerms, brandName: string): Promise<string>;
  createSubscription(input: {
    plan: PaidPlanId;
    /** The provider plan to subscribe to (the settings' or the fallback). */
    planId: string;
    /** Days before the first charge where the provider takes them with the subscription (Razorpay's start_at). */
    trialDays: number;
    customer: BillingCustomer;
    /** Our own subscription row id, kept by the provider (PayPal's custom_id). */
    reference: string;
    urls: ReturnUrls;
    /** Who the buyer is paying, on the provider's approval page: the brand's name now. */
    brandName: string;
  }): Promise<{ id: string; approvalUrl: string; raw: unknown }>;
  fetchSubscription(id: string): Promise<ProviderSubscription>;
  cancelSubscription(id: string, reason: string): Promise<void>;
  changePlan(
    id: string,
    planId: string,
    urls: ReturnUrls,
    brandName: string,
  ): Promise<{ approvalUrl: string }>;
}

/** What a provider plan charges. */
export interface PlanTerms {
  plan: PaidPlanId;
  amountCents: number;
  currency: Currency;
  /** A free trial before the first charge, in days (0: none). */
  trialDays: number;
}

/** 800 -> "8.00": cents as the providers' decimal strings. */
export const fromCents = (cents: number): string => (cents / 100).toFixed(2);

/** The provider refused or failed a call; the message is for logs, not for members. */
export class ProviderError extends Error {
  override name = 'ProviderError';
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

/** "8.00" -> 800: money from providers' decimal strings to integer cents. */
export function toCents(value: string | undefined): number {
  if (!value || !/^\d+(\.\d{1,2})?$/.test(value)) return 0;
  const [whole, fraction = ''] = value.split('.');
  return Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
}

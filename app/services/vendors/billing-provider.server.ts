import type { BillingCustomer, PaymentProvider } from '../../../db/schema';
import type { PaidPlanId } from '~/domain/plans';

/**
 * What the billing service needs of a payment provider, whatever the provider:
 * start a subscription for a plan, read it back in one normalised shape,
 * cancel it and move it to another plan. PayPal implements it over its SDK
 * (paypal.server.ts); Razorpay joins behind the same interface.
 */
export type ProviderStatus = 'pending' | 'active' | 'suspended' | 'cancelled' | 'expired';

interface ProviderPayment {
  /** Unique per payment of this subscription (the provider's id, or its time). */
  key: string;
  amountCents: number;
  currency: string;
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
  /** Whether the operator configured it (or demo mode simulates it). */
  enabled(): boolean;
  createSubscription(input: {
    plan: PaidPlanId;
    customer: BillingCustomer;
    /** Our own subscription row id, kept by the provider (PayPal's custom_id). */
    reference: string;
    urls: ReturnUrls;
  }): Promise<{ id: string; approvalUrl: string; raw: unknown }>;
  fetchSubscription(id: string): Promise<ProviderSubscription>;
  cancelSubscription(id: string, reason: string): Promise<void>;
  changePlan(id: string, plan: PaidPlanId, urls: ReturnUrls): Promise<{ approvalUrl: string }>;
}

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

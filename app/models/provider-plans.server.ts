import type { PaymentProvider } from '../../db/schema';
import type { Currency, PaidPlanId } from '~/domain/plans';
import { transaction } from '~/utils/database.server';
import { readSetting, writeSetting } from './settings.server';

/**
 * Every plan the settings page has created at a payment provider (ADR 0063), kept in `settings`
 * under `provider_plans` and only ever added to: a member who subscribed at an older price stays on
 * that provider plan, so its id must still be known to be the Monthly or Yearly Plan; a price set
 * again (or rolled back to) reuses the plan created for it instead of creating another; and a save
 * that failed at one provider keeps what the others created, so trying again creates nothing twice.
 */
export interface ProviderPlanRecord {
  provider: PaymentProvider;
  /** The provider's plan id ('P-…' at PayPal, 'plan_…' at Razorpay). */
  id: string;
  plan: PaidPlanId;
  amountCents: number;
  currency: Currency;
  /** The trial the provider plan includes (PayPal's trial cycle; 0 at Razorpay, whose trial is the subscription's start). */
  trialDays: number;
  createdAt: string;
}

interface ProviderPlans {
  /** PayPal's catalog product the billing plans belong to: created once. */
  paypalProductId?: string;
  plans: ProviderPlanRecord[];
}

const KEY = 'provider_plans';

async function read(): Promise<ProviderPlans> {
  const row = await readSetting(KEY);
  try {
    const parsed = row ? (JSON.parse(row.value) as Partial<ProviderPlans>) : {};
    return { ...parsed, plans: Array.isArray(parsed.plans) ? parsed.plans : [] };
  } catch {
    return { plans: [] };
  }
}

/** Every provider plan created so far, oldest first. */
export async function listProviderPlans(): Promise<ProviderPlanRecord[]> {
  return (await read()).plans;
}

/** The paid plan a provider plan id was created for, if the settings page created it. */
export async function paidPlanOfProviderPlan(
  provider: PaymentProvider,
  id: string,
): Promise<PaidPlanId | undefined> {
  return (await read()).plans.find((plan) => plan.provider === provider && plan.id === id)?.plan;
}

export async function recordProviderPlan(record: ProviderPlanRecord): Promise<void> {
  await transaction(async () => {
    const current = await read();
    await writeSetting(KEY, JSON.stringify({ ...current, plans: [...current.plans, record] }));
  });
}

export async function payPalProductId(): Promise<string | undefined> {
  return (await read()).paypalProductId;
}

export async function recordPayPalProduct(id: string): Promise<void> {
  await transaction(async () => {
    const current = await read();
    await writeSetting(KEY, JSON.stringify({ ...current, paypalProductId: id }));
  });
}

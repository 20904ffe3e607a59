import { PAYMENT_PROVIDERS, type PaymentProvider } from '../../../db/enums';
import {
  formatPrice,
  PLAN_NAMES,
  type PaidPlanId,
  type PlanSettings,
  type ProviderPrice,
} from '~/domain/plans';
import { fail, ok, type Result } from '~/domain/result';
import { listProviderPlans, recordProviderPlan } from '~/models/provider-plans.server';
import { brand } from '~/services/brand.server';
import { log } from '~/utils/logger.server';
import type { PlanTerms } from '../vendors/billing-provider.server';
import { BILLING_PROVIDERS } from '../vendors/billing-providers.server';

/**
 * Prices reach the providers (ADR 0063): a price saved on the settings page is charged by a plan
 * at PayPal (catalog product + billing plan, its trial as a trial cycle) and at Razorpay (its
 * plans API), whose ids the settings keep beside the price, so checkouts use them from then on.
 */
const PAID_PLANS: PaidPlanId[] = ['monthly', 'yearly'];
const PROVIDER_NAMES: Record<PaymentProvider, string> = { paypal: 'PayPal', razorpay: 'Razorpay' };

/** What a provider plan for this price must charge: Razorpay's trial is the subscription's. */
function termsOf(
  provider: PaymentProvider,
  plan: PaidPlanId,
  price: ProviderPrice,
  trialDays: number,
): PlanTerms {
  return {
    plan,
    amountCents: price.amountCents,
    currency: price.currency,
    trialDays: provider === 'paypal' ? trialDays : 0,
  };
}

const sameTerms = (a: PlanTerms, b: PlanTerms) =>
  a.plan === b.plan &&
  a.amountCents === b.amountCents &&
  a.currency === b.currency &&
  a.trialDays === b.trialDays;

const providerPlanFailed = (provider: PaymentProvider, plan: PaidPlanId, terms: PlanTerms) =>
  `${PROVIDER_NAMES[provider]} did not create the ${PLAN_NAMES[plan]} at ${formatPrice(terms.amountCents, terms.currency)}, so nothing was saved. Please try again in a moment.`;

/**
 * The settings `after` with each provider price that changed since `before` tied to a provider
 * plan charging it: one created before for the same terms (a price set again, a retry after a
 * failure), else a new one. A price whose terms did not change keeps its plan (or the
 * environment's). A provider without credentials gets no plan (its checkout is not offered). The
 * first provider that fails ends the save with its message; what was created before it is kept
 * in the list of provider plans, for the next try to reuse.
 */
export async function withProviderPlans(
  before: PlanSettings,
  after: PlanSettings,
): Promise<Result<PlanSettings>> {
  const result = structuredClone(after);
  const created = await listProviderPlans();
  // What the providers show of a new plan (Razorpay's description, PayPal's product) is named
  // after the brand as it is now; a plan made before a rename keeps the name it was made with.
  const { name: brandName } = await brand();
  for (const plan of PAID_PLANS) {
    for (const provider of PAYMENT_PROVIDERS) {
      const was = termsOf(provider, plan, before[plan].prices[provider], before[plan].trialDays);
      const wanted = termsOf(provider, plan, after[plan].prices[provider], after[plan].trialDays);
      const price = result[plan].prices[provider];
      if (sameTerms(was, wanted)) {
        price.planId = before[plan].prices[provider].planId;
        continue;
      }
      delete price.planId;
      if (!BILLING_PROVIDERS[provider].configured()) continue;
      const known = created.find(
        (record) => record.provider === provider && sameTerms(record, wanted),
      );
      if (known) {
        price.planId = known.id;
        continue;
      }
      try {
        const id = await BILLING_PROVIDERS[provider].createPlan(wanted, brandName);
        await recordProviderPlan({ provider, id, ...wanted, createdAt: new Date().toISOString() });
        log.info('billing.provider_plan_created', { provider, plan, id });
        price.planId = id;
      } catch (error) {
        log.warn('billing.provider_plan_failed', { provider, plan, error });
        return fail(providerPlanFailed(provider, plan, wanted), 502);
      }
    }
  }
  return ok(result);
}

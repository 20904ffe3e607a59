import type { PaymentProvider } from '../../../db/schema';
import { formatPlanPrice, PLAN_NAMES, planList, type PlanDefinition } from '~/domain/plans';
import { enabledProviders } from '~/services/billing/providers.server';
import { plans } from '~/services/plans.server';
import { guardApi } from '~/utils/responses.server';
import { API, apiJson } from '~/api/contract.server';

/** A provider's price, field by field: the provider's plan id stays on the server. */
function priceAt(plan: PlanDefinition, provider: PaymentProvider, enabled: PaymentProvider[]) {
  const { amountCents, currency } = plan.prices[provider];
  return {
    amountCents,
    currency,
    formatted: formatPlanPrice(plan, provider),
    checkout: plan.period !== null && enabled.includes(provider),
  };
}

/**
 * GET /api/plans -> [{ id, name, period, trialDays, prices: { paypal, razorpay }, limits }], the
 * plans as set now; public, as /pricing is. `limits` is the plan's own, whole, so a limit added
 * to the plans is answered without a change here.
 */
export async function loader() {
  return guardApi('plans', async () => {
    const [table, enabled] = await Promise.all([plans(), enabledProviders()]);
    const body = planList(table).map((plan) => ({
      id: plan.id,
      name: PLAN_NAMES[plan.id],
      period: plan.period,
      trialDays: plan.trialDays,
      prices: {
        paypal: priceAt(plan, 'paypal', enabled),
        razorpay: priceAt(plan, 'razorpay', enabled),
      },
      limits: { ...plan.limits },
    }));
    return apiJson(API.plans, 200, body, { headers: { 'Cache-Control': 'no-cache' } });
  });
}

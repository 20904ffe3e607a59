import { Link } from '@remix-run/react';
import type { PaymentProvider } from '../../db/schema';
import {
  formatPlanPrice,
  formatPrice,
  planButton,
  trialText,
  type PlanDefinition,
  type PlanId,
} from '~/domain/plans';
import { useRootData } from '~/root';

const PERIOD_LABEL = { month: 'per month', year: 'per year' } as const;
const PROVIDER_LABELS: Record<PaymentProvider, string> = { paypal: 'PayPal', razorpay: 'Razorpay' };

function PlanCard({
  plan,
  button,
  current,
  providers,
}: {
  plan: PlanDefinition;
  button: { label: string; to: string };
  current: boolean;
  providers: PaymentProvider[];
}) {
  const headingId = `plan-${plan.id}`;
  const headline = plan.prices[providers[0] ?? 'paypal'];
  const priceTexts = providers.map((provider) => formatPlanPrice(plan, provider));
  // Each checkout's own price when they differ (USD on PayPal, INR on Razorpay: ADR 0063).
  const perProvider = plan.period !== null && new Set(priceTexts).size > 1;
  const trial = trialText(plan);
  return (
    <article
      className={`plan-card${plan.id === 'monthly' ? ' featured' : ''}`}
      aria-labelledby={headingId}
      data-testid={`plan-${plan.id}`}
    >
      <h3 id={headingId}>{plan.name}</h3>
      <p className="plan-price">
        <span className="plan-cost">{formatPrice(headline.amountCents, headline.currency)}</span>
        {plan.period ? <span className="plan-period"> {PERIOD_LABEL[plan.period]}</span> : null}
      </p>
      {perProvider ? (
        <ul className="plan-provider-prices" aria-label={`${plan.name} price by payment method`}>
          {providers.map((provider, index) => (
            <li key={provider} data-testid={`price-${provider}`}>
              {PROVIDER_LABELS[provider]}: {priceTexts[index]}
            </li>
          ))}
        </ul>
      ) : null}
      {trial ? (
        <p className="plan-trial" data-testid="plan-trial">
          {trial}
        </p>
      ) : null}
      <ul className="plan-features">
        {plan.features.map((feature) =>
          feature.included ? (
            <li key={feature.text}>
              <span className="plan-mark" aria-hidden="true">
                ✓
              </span>
              {feature.text}
            </li>
          ) : (
            <li key={feature.text} className="excluded">
              <span className="plan-mark" aria-hidden="true">
                ✕
              </span>
              <s>{feature.text}</s>
              <span className="visually-hidden"> (not included)</span>
            </li>
          ),
        )}
      </ul>
      {current ? <p className="plan-current">Your current plan</p> : null}
      <Link
        to={button.to}
        className={`button${plan.id === 'monthly' ? ' primary' : ''}`}
        aria-label={`${button.label}: ${plan.name}`}
      >
        {button.label}
      </Link>
    </article>
  );
}

/**
 * The three plan cards, as the operator set them; the button follows the signed-in member's plan.
 * `providers`: the checkouts offered, the first one's price in large.
 */
export function PlanCards({
  plans,
  providers = ['paypal'],
}: {
  plans: PlanDefinition[];
  providers?: PaymentProvider[];
}) {
  const root = useRootData();
  const user = root?.user ?? null;
  const current: PlanId | null = user?.plan ?? null;
  return (
    <div className="plan-grid">
      {plans.map((plan) => (
        <PlanCard
          key={plan.id}
          plan={plan}
          button={planButton(plan.id, user)}
          current={current === plan.id}
          providers={providers}
        />
      ))}
    </div>
  );
}

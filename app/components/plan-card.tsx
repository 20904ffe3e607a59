import { Link } from '@remix-run/react';
import { formatDollars, planButton, type PlanDefinition, type PlanId } from '~/domain/plans';
import { useRootData } from '~/root';

const PERIOD_LABEL = { month: 'per month', year: 'per year' } as const;

function PlanCard({
  plan,
  button,
  current,
}: {
  plan: PlanDefinition;
  button: { label: string; to: string };
  current: boolean;
}) {
  const headingId = `plan-${plan.id}`;
  return (
    <article
      className={`plan-card${plan.id === 'monthly' ? ' featured' : ''}`}
      aria-labelledby={headingId}
      data-testid={`plan-${plan.id}`}
    >
      <h3 id={headingId}>{plan.name}</h3>
      <p className="plan-price">
        <span className="plan-cost">{formatDollars(plan.amountCents)}</span>
        {plan.period ? <span className="plan-period"> {PERIOD_LABEL[plan.period]}</span> : null}
      </p>
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

/** The three plan cards, as the operator set them; the button follows the signed-in member's plan. */
export function PlanCards({ plans }: { plans: PlanDefinition[] }) {
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
        />
      ))}
    </div>
  );
}

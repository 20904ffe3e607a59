import { redirect, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { formatPlanPrice, getPlan, isPaidPlan } from '~/domain/plans';
import publicStyles from '~/styles/public.css?url';
import { pageMeta } from '~/utils/meta';

export const links = () => [{ rel: 'stylesheet', href: publicStyles }];

export const meta: MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'Payment',
    description: 'Subscribe to a paid plan.',
    noIndex: true,
  });

/**
 * Placeholder until the payments issue: the chosen plan comes from
 * `?plan=monthly|yearly` (navigation state would not survive a reload);
 * without a paid plan the visitor goes back to /pricing.
 */
export function loader({ request }: LoaderFunctionArgs) {
  const plan = new URL(request.url).searchParams.get('plan');
  if (!isPaidPlan(plan)) throw redirect('/pricing');
  return { plan };
}

export default function Payment() {
  const { plan: id } = useLoaderData<typeof loader>();
  const plan = getPlan(id);
  return (
    <div className="page narrow">
      <h1>Payment</h1>
      <p className="lead" data-testid="payment-plan">
        {plan.name}: {formatPlanPrice(plan)}
      </p>
      <p>
        The checkout form (email, name, address, postal code and country) with the PayPal button
        will appear here.
      </p>
      <Link to="/pricing" className="button">
        Back to Pricing
      </Link>
    </div>
  );
}

import { redirect, type LoaderFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { formatPlanPrice, getPlan, isPaidPlan } from '~/domain/plans';
import publicStyles from '~/styles/public.css?url';
import { requireUser } from '~/utils/auth.server';
import { pageMeta } from '~/utils/meta';

export const links = () => [{ rel: 'stylesheet', href: publicStyles }];

export const meta: MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'Subscription',
    description: 'Your subscription: plan, billing dates and amount.',
    noIndex: true,
  });

/** Placeholder until the payments issue: members only, and free members go to /pricing. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  if (!isPaidPlan(user.plan)) throw redirect('/pricing');
  return { plan: user.plan };
}

export default function Subscription() {
  const { plan: id } = useLoaderData<typeof loader>();
  const plan = getPlan(id);
  return (
    <div className="page narrow">
      <h1>Subscription</h1>
      <p className="lead" data-testid="subscription-plan">
        {plan.name}: {formatPlanPrice(plan)}
      </p>
      <p>
        Your payment method, subscription ID, start time, next billing time and amount, with the
        Cancel Subscription and Modify Subscription buttons, will appear here.
      </p>
      <Link to="/pricing" className="button">
        Back to Pricing
      </Link>
    </div>
  );
}

import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { SubscriptionSummary } from '~/components/subscription-summary';
import { formatPrice } from '~/domain/plans';
import { confirmPlanChange } from '~/services/billing/plan-change.server';
import { subscriptionSummary } from '~/services/billing/subscription-view.server';
import authStyles from '~/styles/auth.css?url';
import { requireUser } from '~/utils/auth.server';
import { siteName } from '~/utils/meta';

export const links = () => [{ rel: 'stylesheet', href: authStyles }];
export const meta: MetaFunction = ({ matches }) => [
  { title: `Plan Modified | ${siteName(matches)}` },
  { name: 'robots', content: 'noindex' },
];

/** After approving a plan change at the provider: the new plan applies once the provider shows it. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const id = new URL(request.url).searchParams.get('subscription_id') ?? '';
  const result = await confirmPlanChange(user, id);
  if (!result.ok) {
    if (result.status === 404) throw new Response('Not Found', { status: 404 });
    return { ok: false as const, message: result.message };
  }
  const { subscription, provider } = result.value;
  return {
    ok: true as const,
    // What this member pays from now on: the price stored with their subscription.
    price: formatPrice(subscription.amountCents, subscription.currency),
    summary: subscriptionSummary(subscription, provider),
  };
}

export default function Successful() {
  const data = useLoaderData<typeof loader>();
  return (
    <section className="auth-page">
      <div className="auth-card card">
        {data.ok ? (
          <>
            <h1>Thank You</h1>
            <p className="lead" data-testid="successful-text">
              Your plan was modified to the {data.summary.plan}. You will be charged {data.price}{' '}
              from the next billing date.
            </p>
            <SubscriptionSummary summary={data.summary} />
          </>
        ) : (
          <>
            <h1>Almost there</h1>
            <p className="lead" role="alert">
              {data.message}
            </p>
          </>
        )}
        <Link to="/subscription" className="button">
          Subscription
        </Link>
      </div>
    </section>
  );
}

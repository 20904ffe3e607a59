import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import type { PaymentProvider } from '../../../db/schema';
import { SubscriptionSummary } from '~/components/subscription-summary';
import { confirmSubscription } from '~/services/billing/checkout.server';
import { subscriptionSummary } from '~/services/billing/subscription-view.server';
import authStyles from '~/styles/auth.css?url';
import { requireUser } from '~/utils/auth.server';
import { siteName } from '~/utils/meta';

export const links = () => [{ rel: 'stylesheet', href: authStyles }];
export const meta: MetaFunction = ({ matches }) => [
  { title: `Thank You | ${siteName(matches)}` },
  { name: 'robots', content: 'noindex' },
];

/**
 * Where the provider sends the member after paying. The server fetches the
 * subscription from the provider and only then makes the member paid and
 * emails the receipt, once however often this page is opened.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const query = new URL(request.url).searchParams;
  const id = query.get('subscription_id') ?? '';
  const method: PaymentProvider = query.get('method') === 'razorpay' ? 'razorpay' : 'paypal';
  const result = await confirmSubscription(user, method, id);
  if (!result.ok) {
    if (result.status === 404) throw new Response('Not Found', { status: 404 });
    return { ok: false as const, name: user.name, message: result.message };
  }
  const { subscription, provider, receipt } = result.value;
  return {
    ok: true as const,
    name: user.name,
    summary: subscriptionSummary(subscription, provider),
    receiptUrl: receipt ? `/receipts/${receipt.number}.pdf` : null,
  };
}

export default function Success() {
  const data = useLoaderData<typeof loader>();
  if (!data.ok)
    return (
      <section className="auth-page">
        <div className="auth-card card">
          <h1>Almost there</h1>
          <p className="lead" role="alert">
            {data.message}
          </p>
          <a href="" className="button primary">
            Try again
          </a>
        </div>
      </section>
    );
  return (
    <section className="auth-page">
      <div className="auth-card card">
        <h1>Thank You</h1>
        <p className="lead" data-testid="success-text">
          {data.name}, you have subscribed to the {data.summary.plan}. Your receipt is on its way to
          your email.
        </p>
        <SubscriptionSummary summary={data.summary} />
        <div className="actions">
          {data.receiptUrl ? (
            <a href={data.receiptUrl} className="button primary" download>
              Download receipt
            </a>
          ) : null}
          <Link to="/create" className="button">
            Generate Course
          </Link>
        </div>
      </div>
    </section>
  );
}

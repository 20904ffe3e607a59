import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, useActionData, useLoaderData } from '@remix-run/react';
import { getMockRazorpaySubscription, mockRazorpayPlanPrice } from '../../../mocks/razorpay';
import { formatPrice, isCurrency } from '~/domain/plans';
import { payDemoRazorpay } from '~/services/billing/demo.server';
import authStyles from '~/styles/auth.css?url';
import { env } from '~/utils/env.server';

/**
 * Demo mode's stand-in for a Razorpay payment link: the plan and a Pay button.
 * Paying activates the simulated subscription and Razorpay's signed webhook
 * follows (to this app only, retried until taken). It exists only while
 * Razorpay is simulated.
 */
export const links = () => [{ rel: 'stylesheet', href: authStyles }];
export const meta: MetaFunction = () => [
  { title: 'Pay | Razorpay (demo)' },
  { name: 'robots', content: 'noindex' },
];

async function subscriptionAt(id: string | undefined) {
  if (!env().mocked.razorpay) throw new Response('Not Found', { status: 404 });
  const subscription = await getMockRazorpaySubscription(id ?? '');
  if (!subscription) throw new Response('Not Found', { status: 404 });
  return subscription;
}

export async function loader({ params }: LoaderFunctionArgs) {
  const subscription = await subscriptionAt(params.id);
  const plan = await mockRazorpayPlanPrice(subscription.plan_id);
  const price = plan && isCurrency(plan.currency) ? formatPrice(plan.amount, plan.currency) : '';
  const startsAt = subscription.start_at ? subscription.start_at * 1000 : 0;
  return {
    plan: plan?.name ?? subscription.plan_id,
    price: `${price} ${plan?.currency ?? ''} every ${plan?.months === 12 ? 'year' : 'month'}`,
    trial:
      startsAt > Date.now()
        ? `Free until ${new Date(startsAt).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC' })}: the first payment is taken then`
        : null,
    customer: subscription.notes.notes_key_1 ?? '',
    paid: subscription.status !== 'created',
  };
}

export async function action({ params }: ActionFunctionArgs) {
  const subscription = await subscriptionAt(params.id);
  // Paid once the simulated Razorpay says so; its webhook follows, retried if it fails.
  if (subscription.status === 'created') await payDemoRazorpay(subscription.id);
  return { paid: true };
}

export default function DemoRazorpayPay() {
  const data = useLoaderData<typeof loader>();
  const paid = useActionData<typeof action>()?.paid || data.paid;
  return (
    <section className="auth-page">
      <div className="auth-card card">
        <p className="muted">Razorpay (simulated in demo mode)</p>
        <h1>{data.plan}</h1>
        <p className="lead" data-testid="demo-price">
          {data.price}
        </p>
        {data.trial ? <p data-testid="demo-trial">{data.trial}</p> : null}
        <p data-testid="demo-customer">{data.customer}</p>
        {paid ? (
          <p role="status" data-testid="demo-paid">
            Payment received. You can close this tab and verify the payment.
          </p>
        ) : (
          <Form method="post">
            <button type="submit" className="button primary">
              Pay
            </button>
          </Form>
        )}
      </div>
    </section>
  );
}

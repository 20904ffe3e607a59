import {
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { Form, useLoaderData } from '@remix-run/react';
import { mockPayPalApproval, mockPayPalCancelUrl } from '../../../mocks/paypal';
import { approveDemoPayPal } from '~/services/billing/demo.server';
import authStyles from '~/styles/auth.css?url';
import { env } from '~/utils/env.server';

/**
 * Demo mode's stand-in for PayPal's approval page: what PayPal would show
 * (the seller's brand name, plan, price, buyer) with Approve and Cancel, sending the buyer back with
 * PayPal's query parameters. It exists only while PayPal is simulated.
 */
export const links = () => [{ rel: 'stylesheet', href: authStyles }];
export const meta: MetaFunction = () => [
  { title: 'Approve your subscription | PayPal (demo)' },
  { name: 'robots', content: 'noindex' },
];

async function pendingApproval(request: Request) {
  if (!env().mocked.paypal) throw new Response('Not Found', { status: 404 });
  const token = new URL(request.url).searchParams.get('ba_token') ?? '';
  const approval = await mockPayPalApproval(token);
  if (!approval) throw new Response('Not Found', { status: 404 });
  return { token, approval };
}

export async function loader({ request }: LoaderFunctionArgs) {
  const { token, approval } = await pendingApproval(request);
  return { approval, cancelUrl: (await mockPayPalCancelUrl(token))! };
}

export async function action({ request }: ActionFunctionArgs) {
  const { token } = await pendingApproval(request);
  const to = await approveDemoPayPal(token);
  if (!to) throw new Response('Not Found', { status: 404 });
  return redirect(to);
}

export default function DemoPayPalApproval() {
  const { approval, cancelUrl } = useLoaderData<typeof loader>();
  return (
    <section className="auth-page">
      <div className="auth-card card">
        <p className="muted">PayPal (simulated in demo mode)</p>
        <h1>{approval.revision ? 'Approve the plan change' : 'Approve your subscription'}</h1>
        <dl className="summary">
          {approval.brandName ? (
            <>
              <dt>Paying</dt>
              <dd data-testid="demo-seller">{approval.brandName}</dd>
            </>
          ) : null}
          <dt>Plan</dt>
          <dd data-testid="demo-plan">{approval.planName}</dd>
          <dt>Price</dt>
          <dd data-testid="demo-price">{approval.price}</dd>
          {approval.trial ? (
            <>
              <dt>Trial</dt>
              <dd data-testid="demo-trial">{approval.trial}</dd>
            </>
          ) : null}
          <dt>Buyer</dt>
          <dd data-testid="demo-buyer">
            {approval.buyer} {approval.email ? `(${approval.email})` : ''}
          </dd>
        </dl>
        <Form method="post" className="form">
          <button type="submit" className="button primary">
            Approve
          </button>
        </Form>
        <p className="auth-links">
          <a href={cancelUrl}>Cancel</a>
        </p>
      </div>
    </section>
  );
}

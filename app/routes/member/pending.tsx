import {
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { FormFeedback } from '~/components/form-feedback';
import { confirmSubscription, pendingPayment } from '~/services/billing/checkout.server';
import { MESSAGES } from '~/services/billing/providers.server';
import authStyles from '~/styles/auth.css?url';
import { requireUser } from '~/utils/auth.server';
import { formResult } from '~/utils/responses.server';
import { siteName } from '~/utils/meta';

export const links = () => [{ rel: 'stylesheet', href: authStyles }];
export const meta: MetaFunction = ({ matches }) => [
  { title: `Payment Pending | ${siteName(matches)}` },
  { name: 'robots', content: 'noindex' },
];

function subscriptionIdOf(request: Request) {
  return new URL(request.url).searchParams.get('subscription_id') ?? '';
}

/** Razorpay: the member pays on the provider's link (a new tab), then asks us to check. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const pending = await pendingPayment(user, subscriptionIdOf(request));
  if (!pending.ok) throw new Response('Not Found', { status: 404 });
  return pending.value;
}

/** Verify Payment: the provider's word decides; active to /success, ended to /failed. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const id = subscriptionIdOf(request);
  const result = await confirmSubscription(user, 'razorpay', id);
  if (result.ok)
    return redirect(`/success?method=razorpay&subscription_id=${encodeURIComponent(id)}`);
  if (result.status === 410) return redirect('/failed');
  if (result.status === 409) return formResult(409, MESSAGES.pending);
  return formResult(result.status, result.message);
}

export default function Pending() {
  const { link } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== 'idle';
  return (
    <section className="auth-page">
      <div className="auth-card card">
        <h1>Payment Pending</h1>
        <p className="lead">
          Please pay for your subscription with the payment link, then come back and verify it.
        </p>
        <div className="actions">
          <a href={link} target="_blank" rel="noopener noreferrer" className="button">
            Payment Link
          </a>
          <Form method="post">
            <button type="submit" className="button primary" disabled={busy}>
              Verify Payment
            </button>
          </Form>
        </div>
        <FormFeedback result={result} />
      </div>
    </section>
  );
}

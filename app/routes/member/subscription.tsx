import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { FormFeedback } from '~/components/form-feedback';
import { SubscriptionSummary } from '~/components/subscription-summary';
import { isPaidPlan, planName } from '~/domain/plans';
import { cancelSubscription } from '~/services/billing/cancellation.server';
import { MESSAGES } from '~/services/billing/providers.server';
import { startPlanChange } from '~/services/billing/plan-change.server';
import {
  subscriptionDetails,
  subscriptionSummary,
} from '~/services/billing/subscription-view.server';
import { formatMoney } from '~/services/billing/receipt-document.server';
import authStyles from '~/styles/auth.css?url';
import { requireUser } from '~/utils/auth.server';
import { pageMeta } from '~/utils/meta';
import { providerReturnBase } from '~/utils/public-url.server';
import { formResult } from '~/utils/responses.server';
import { toastHeader } from '~/utils/toast.server';
import { readBody } from '~/utils/validation.server';
import { TableScroll } from '~/components/table-scroll';

export const links = () => [{ rel: 'stylesheet', href: authStyles }];

export const meta: MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'Subscription',
    description: 'Your subscription: plan, billing dates and amount.',
    noIndex: true,
  });

/** A free member has nothing to manage here and goes to /pricing. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const details = await subscriptionDetails(user);
  if (!details.ok) {
    if (!isPaidPlan(user.plan)) throw redirect('/pricing');
    // A paid plan granted without a provider subscription (e.g. by an operator).
    return { summary: null, plan: planName(user.plan), receipts: [], cancelled: false };
  }
  const { subscription, provider, receipts } = details.value;
  return {
    summary: subscriptionSummary(subscription, provider),
    plan: planName(subscription.plan),
    cancelled: subscription.status === 'cancelled',
    receipts: receipts.map((receipt) => ({
      number: receipt.number,
      paidAt: receipt.paidAt.toISOString().slice(0, 10),
      plan: planName(receipt.plan),
      amount: formatMoney(receipt.amountCents, receipt.currency),
    })),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const { intent } = await readBody(request);
  if (intent === 'cancel') {
    const result = await cancelSubscription(user);
    if (!result.ok) return formResult(result.status, result.message);
    return redirect('/pricing', {
      headers: {
        'Set-Cookie': await toastHeader({ type: 'success', message: MESSAGES.cancelled }),
      },
    });
  }
  if (intent === 'modify') {
    const result = await startPlanChange(user, providerReturnBase(request));
    if (!result.ok) return formResult(result.status, result.message);
    return redirect(result.value.approvalUrl);
  }
  return data({ success: false, message: 'Unknown action' }, { status: 400 });
}

export default function Subscription() {
  const { summary, plan, receipts, cancelled } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== 'idle';
  return (
    <section className="auth-page">
      <div className="auth-card card wide">
        <h1>Subscription</h1>
        {summary ? (
          <>
            <SubscriptionSummary summary={summary} />
            {cancelled ? (
              <p className="notice" data-testid="paid-until">
                Cancelled: your {plan} stays active until {summary.paidUntil}.
              </p>
            ) : (
              <Form method="post" className="actions">
                <button
                  type="submit"
                  name="intent"
                  value="cancel"
                  className="button"
                  disabled={busy}
                >
                  Cancel Subscription
                </button>
                <button
                  type="submit"
                  name="intent"
                  value="modify"
                  className="button primary"
                  disabled={busy}
                >
                  Modify Subscription
                </button>
              </Form>
            )}
            <FormFeedback result={result} />
            <h2>Billing history</h2>
            {receipts.length === 0 ? (
              <p>No payments yet.</p>
            ) : (
              <TableScroll label="Billing history">
                <table className="receipts" data-testid="receipts">
                  <thead>
                    <tr>
                      <th scope="col">Receipt</th>
                      <th scope="col">Date</th>
                      <th scope="col">Plan</th>
                      <th scope="col">Amount</th>
                    </tr>
                  </thead>
                  <tbody>
                    {receipts.map((receipt) => (
                      <tr key={receipt.number}>
                        <td>
                          <a href={`/receipts/${receipt.number}.pdf`} download>
                            #{String(receipt.number).padStart(6, '0')}
                          </a>
                        </td>
                        <td>{receipt.paidAt}</td>
                        <td>{receipt.plan}</td>
                        <td>{receipt.amount}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </TableScroll>
            )}
          </>
        ) : (
          <p className="lead" data-testid="subscription-plan">
            Your {plan} was granted without a payment subscription, so there is nothing to bill.
          </p>
        )}
      </div>
    </section>
  );
}

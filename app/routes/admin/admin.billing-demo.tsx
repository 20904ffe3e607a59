import {
  data,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { Form, useActionData, useLoaderData } from '@remix-run/react';
import { z } from 'zod';
import { FormFeedback } from '~/components/form-feedback';
import { listRecentSubscriptions } from '~/models/subscriptions.server';
import { simulateAt } from '~/services/billing/demo.server';
import { requireAdmin } from '~/utils/auth.server';
import { env } from '~/utils/env.server';
import { parseWith, readBody } from '~/utils/validation.server';
import { TableScroll } from '~/components/table-scroll';

export const meta: MetaFunction = () => [{ title: 'Billing simulator | Admin Panel' }];

/**
 * Demo mode only: make a renewal, a failed charge, a suspension or a
 * cancellation happen at the simulated provider, whose signed webhook then
 * reaches the site like a real one, so every billing path can be seen by hand.
 */
function requireDemo() {
  if (!env().demo) throw new Response('Not Found', { status: 404 });
}

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  requireDemo();
  return { subscriptions: await listRecentSubscriptions() };
}

const simulationSchema = z.object({
  provider: z.enum(['paypal', 'razorpay']),
  subscriptionId: z.string().min(1).max(64),
  what: z.enum(['renew', 'fail', 'halt', 'cancel']),
});

export async function action({ request }: ActionFunctionArgs) {
  await requireAdmin(request);
  requireDemo();
  const parsed = parseWith(simulationSchema, await readBody(request));
  if (!parsed.ok) return data({ success: false, message: parsed.message }, { status: 400 });
  const { provider, subscriptionId, what } = parsed.value;
  const result = await simulateAt(provider, subscriptionId, what);
  return result.ok
    ? { success: true, message: result.value.message }
    : data({ success: false, message: result.message }, { status: result.status });
}

const ACTIONS = [
  ['renew', 'Renewal'],
  ['fail', 'Failed charge'],
  ['halt', 'Suspend'],
  ['cancel', 'Cancel at provider'],
] as const;

export default function BillingDemo() {
  const { subscriptions } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <section className="page">
      <h1>Billing simulator</h1>
      <p className="lead">Demo mode: what a payment provider would do, with its signed webhook.</p>
      <FormFeedback result={result} />
      <TableScroll label="Subscriptions">
        <table data-testid="billing-demo">
          <thead>
            <tr>
              <th scope="col">Member</th>
              <th scope="col">Provider</th>
              <th scope="col">Subscription</th>
              <th scope="col">Plan</th>
              <th scope="col">Status</th>
              <th scope="col">Simulate</th>
            </tr>
          </thead>
          <tbody>
            {subscriptions.map((row) => (
              <tr key={row.id}>
                <td>{row.email}</td>
                <td>{row.provider}</td>
                <td>{row.providerSubscriptionId}</td>
                <td>{row.plan}</td>
                <td>{row.status}</td>
                <td>
                  <Form method="post">
                    <input type="hidden" name="provider" value={row.provider} />
                    <input type="hidden" name="subscriptionId" value={row.providerSubscriptionId} />
                    {ACTIONS.map(([what, label]) => (
                      <button key={what} type="submit" name="what" value={what} className="button">
                        {label}
                      </button>
                    ))}
                  </Form>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
    </section>
  );
}

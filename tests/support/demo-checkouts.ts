import readline from 'node:readline';
import { setupServer } from 'msw/node';
import { DEMO_PAYPAL_PLANS, PAYPAL_SANDBOX_URL, paypalHandlers } from '../../mocks/paypal';
import { DEMO_RAZORPAY_PLANS, RAZORPAY_URL, razorpayHandlers } from '../../mocks/razorpay';

/**
 * One of several processes starting checkouts at the simulated providers at the same moment, as
 * several web processes and the worker do (tests/integration/billing-demo-providers.test.ts).
 * Uses the test's DATA_DIR (inherited). Prints "ready" once booted, waits for a line on stdin,
 * then sends COUNT PayPal and COUNT Razorpay subscription creations at once, as the providers'
 * SDKs send them (only the mocks are loaded, to keep the process light), and prints one JSON
 * line: { paypal: [{ id, approvalUrl }], razorpay: [...] }.
 */
const count = Number(process.env.COUNT ?? 10);

async function created(response: Promise<Response>) {
  const answer = await response;
  if (!answer.ok) throw new Error(`${answer.status} ${await answer.text()}`);
  return (await answer.json()) as {
    id: string;
    short_url?: string;
    links?: { rel: string; href: string }[];
  };
}

async function paypalCheckout(n: number) {
  const subscription = await created(
    fetch(`${PAYPAL_SANDBOX_URL}/v1/billing/subscriptions`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: 'Bearer demo' },
      body: JSON.stringify({
        plan_id: Object.keys(DEMO_PAYPAL_PLANS)[0],
        custom_id: `ref-${process.pid}-${n}`,
        subscriber: { name: { given_name: 'Con', surname: 'Current' } },
        application_context: {
          return_url: 'http://127.0.0.1:3000/success?plan=monthly&method=paypal',
          cancel_url: 'http://127.0.0.1:3000/failed',
        },
      }),
    }),
  );
  return {
    id: subscription.id,
    approvalUrl: subscription.links!.find((link) => link.rel === 'approve')!.href,
  };
}

async function razorpayCheckout(n: number) {
  const subscription = await created(
    fetch(`${RAZORPAY_URL}/v1/subscriptions`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/json',
        Authorization: `Basic ${Buffer.from('rzp_test_demo:demo-secret').toString('base64')}`,
      },
      body: JSON.stringify({
        plan_id: Object.keys(DEMO_RAZORPAY_PLANS)[0],
        total_count: 120,
        notes: { reference: `ref-${process.pid}-${n}` },
      }),
    }),
  );
  return { id: subscription.id, approvalUrl: subscription.short_url! };
}

setupServer(...paypalHandlers, ...razorpayHandlers).listen({ onUnhandledRequest: 'error' });
process.stdout.write('ready\n');
readline.createInterface({ input: process.stdin }).once('line', () => {
  const all = <T>(start: (n: number) => Promise<T>) =>
    Promise.all(Array.from({ length: count }, (_, n) => start(n)));
  void Promise.all([all(paypalCheckout), all(razorpayCheckout)]).then(
    ([paypal, razorpay]) => {
      process.stdout.write(`${JSON.stringify({ paypal, razorpay })}\n`);
      process.exit(0);
    },
    (error: unknown) => {
      process.stderr.write(`${String(error)}\n`);
      process.exit(1);
    },
  );
});

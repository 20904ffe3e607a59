import {
  redirect,
  type ActionFunctionArgs,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { z } from 'zod';
import type { PaymentProvider } from '../../../db/schema';
import { FormFeedback } from '~/components/form-feedback';
import { COUNTRIES_ENGLISH, COUNTRIES_NATIVE, isCountryCode } from '~/domain/countries';
import { formatPlanPrice, isPaidPlan, trialText } from '~/domain/plans';
import { planOf } from '~/services/plans.server';
import { enabledProviders } from '~/services/billing/providers.server';
import { startCheckout } from '~/services/billing/checkout.server';
import authStyles from '~/styles/auth.css?url';
import { requireUser } from '~/utils/auth.server';
import { formAction } from '~/utils/actions.server';
import { pageMeta } from '~/utils/meta';
import { providerReturnBase } from '~/utils/public-url.server';
import { REQUIRED_FIELDS_MESSAGE } from '~/utils/messages';
import { requiredText } from '~/utils/validation.server';

export const links = () => [{ rel: 'stylesheet', href: authStyles }];

export const meta: MetaFunction = ({ matches }) =>
  pageMeta(matches, { title: 'Payment', description: 'Subscribe to a paid plan.', noIndex: true });

const PROVIDER_LABELS: Record<PaymentProvider, string> = { paypal: 'PayPal', razorpay: 'Razorpay' };

/** The chosen plan comes from `?plan=monthly|yearly`; without a paid plan, back to /pricing. */
function chosenPlan(request: Request) {
  const plan = new URL(request.url).searchParams.get('plan');
  if (!isPaidPlan(plan)) throw redirect('/pricing');
  return plan;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const plan = chosenPlan(request);
  if (isPaidPlan(user.plan)) throw redirect('/subscription');
  const native = new Map(COUNTRIES_NATIVE.map((country) => [country.code, country.label]));
  return {
    plan: await planOf(plan),
    email: user.email,
    providers: await enabledProviders(),
    countries: COUNTRIES_ENGLISH.map((country) => ({
      code: country.code,
      label:
        native.get(country.code) && native.get(country.code) !== country.label
          ? `${country.label} (${native.get(country.code)})`
          : country.label,
    })),
  };
}

const checkoutSchema = z
  .object({
    email: requiredText(254),
    firstName: requiredText(100),
    lastName: requiredText(100),
    address: requiredText(300),
    postalCode: requiredText(12),
    country: requiredText(2),
    provider: z.enum(['paypal', 'razorpay'], { error: REQUIRED_FIELDS_MESSAGE }),
  })
  .pipe(
    z.object({
      email: z.email('Please enter a valid email address'),
      firstName: z.string(),
      lastName: z.string(),
      address: z.string(),
      postalCode: z.string().regex(/^\d{3,10}$/, 'The postal code should contain only digits'),
      country: z.string().refine(isCountryCode, 'Please choose a country from the list'),
      provider: z.enum(['paypal', 'razorpay']),
    }),
  );

/** The plan is read from the URL; whatever plan, price or user a form sends is ignored. */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const plan = chosenPlan(request);
  return formAction(
    request,
    {
      name: 'checkout',
      schema: checkoutSchema,
      run: ({ provider, ...customer }) =>
        startCheckout(user, { plan, provider, customer, returnBase: providerReturnBase(request) }),
    },
    (value) => redirect(value.next),
  );
}

export default function Payment() {
  const { plan, email, providers, countries } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state !== 'idle';
  return (
    <section className="auth-page">
      <div className="auth-card card">
        <h1>Payment</h1>
        <p className="lead" data-testid="payment-plan">
          {plan.name}: {formatPlanPrice(plan, providers[0])}
        </p>
        {providers.length > 1 &&
        formatPlanPrice(plan, providers[0]) !== formatPlanPrice(plan, providers[1]) ? (
          <ul className="provider-prices" aria-label="Price by payment method">
            {providers.map((provider) => (
              <li key={provider} data-testid={`payment-price-${provider}`}>
                {PROVIDER_LABELS[provider]}: {formatPlanPrice(plan, provider)}
              </li>
            ))}
          </ul>
        ) : null}
        {trialText(plan) ? (
          <p data-testid="payment-trial">
            {trialText(plan)}: nothing is charged until it ends, and you can cancel before.
          </p>
        ) : null}
        <Form method="post" noValidate className="form">
          <label>
            Email
            <input name="email" type="email" autoComplete="email" defaultValue={email} />
          </label>
          <label>
            First Name
            <input name="firstName" autoComplete="given-name" />
          </label>
          <label>
            Last Name
            <input name="lastName" autoComplete="family-name" />
          </label>
          <label>
            Address
            <input name="address" autoComplete="street-address" />
          </label>
          <label>
            Postal Code
            <input name="postalCode" inputMode="numeric" autoComplete="postal-code" />
          </label>
          <label>
            Country
            <select name="country" defaultValue="" autoComplete="country">
              <option value="" disabled>
                Choose a country
              </option>
              {countries.map((country) => (
                <option key={country.code} value={country.code}>
                  {country.label}
                </option>
              ))}
            </select>
          </label>
          {providers.length === 0 ? (
            <p role="alert">Payments are not set up on this site yet.</p>
          ) : (
            providers.map((provider) => (
              <button
                key={provider}
                type="submit"
                name="provider"
                value={provider}
                className="button primary"
                disabled={busy}
              >
                {PROVIDER_LABELS[provider]}
              </button>
            ))
          )}
          <FormFeedback result={result} />
        </Form>
        <p className="auth-links">
          <Link to="/pricing">Back to Pricing</Link>
        </p>
      </div>
    </section>
  );
}

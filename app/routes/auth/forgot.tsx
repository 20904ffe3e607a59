import { formAction } from '~/utils/actions.server';
import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from '@remix-run/node';
import { Form, Link, useActionData, useNavigation } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { FormErrorBoundary, FormFeedback } from '~/components/form-feedback';
import { forgotSchema } from '~/services/accounts/schemas.server';
import { requestPasswordReset } from '~/services/accounts/password-reset.server';
import authStyles from '~/styles/auth.css?url';
import { requireAnonymous } from '~/utils/auth.server';
import { formatCountdown } from '~/utils/countdown';
import { clientIp } from '~/utils/rate-limit.server';
import { formResult } from '~/utils/responses.server';
import { siteName } from '~/utils/meta';

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: authStyles }];
export const meta: MetaFunction = ({ matches }) => [
  { title: `Forgot Password | ${siteName(matches)}` },
];

/** Seconds before the reset email can be asked for again. */
const RESEND_SECONDS = 60;

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAnonymous(request);
  const ip = clientIp(context);
  return formAction(
    request,
    { name: 'forgot', schema: forgotSchema, run: (input) => requestPasswordReset(input, ip) },
    (value) => formResult(200, value.message, true),
  );
}

export default function Forgot() {
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const [secondsLeft, setSecondsLeft] = useState(result?.success ? RESEND_SECONDS : 0);

  useEffect(() => {
    if (result?.success) setSecondsLeft(RESEND_SECONDS);
  }, [result]);
  useEffect(() => {
    if (secondsLeft <= 0) return;
    const timer = setTimeout(() => setSecondsLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [secondsLeft]);

  const waiting = secondsLeft > 0;
  return (
    <section className="auth-page">
      <div className="auth-card card">
        <h1>Forgot Password</h1>
        <p className="lead">Enter your email and we will send you a link to reset your password.</p>
        <Form method="post" noValidate className="form">
          <label>
            Email
            <input name="email" type="email" autoComplete="email" />
          </label>
          <button type="submit" className="button primary" disabled={busy || waiting}>
            Submit
          </button>
          {waiting ? (
            <p className="countdown" data-testid="resend-countdown">
              You can ask again in <span role="timer">{formatCountdown(secondsLeft)}</span>
            </p>
          ) : null}
          <FormFeedback result={result} />
        </Form>
        <p className="auth-links">
          Remembered it? <Link to="/signin">SignIn</Link>
        </p>
      </div>
    </section>
  );
}

export const ErrorBoundary = FormErrorBoundary;

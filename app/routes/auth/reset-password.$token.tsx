import { formAction } from '~/utils/actions.server';
import {
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { FormErrorBoundary, FormFeedback } from '~/components/form-feedback';
import { isResetTokenUsable } from '~/models/password-resets.server';
import { MESSAGES } from '~/services/accounts/messages.server';
import { resetFormSchema } from '~/services/accounts/schemas.server';
import { resetPassword } from '~/services/accounts/password-reset.server';
import authStyles from '~/styles/auth.css?url';
import { requireAnonymous } from '~/utils/auth.server';
import { clientIp } from '~/utils/rate-limit.server';
import { toastHeader } from '~/utils/toast.server';
import { siteName } from '~/utils/meta';

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: authStyles }];
export const meta: MetaFunction = ({ matches }) => [
  { title: `Reset Password | ${siteName(matches)}` },
];

export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  const usable = await isResetTokenUsable(params.token ?? '');
  return { usable, message: usable ? null : MESSAGES.badResetToken };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  await requireAnonymous(request);
  const ip = clientIp(context);
  return formAction(
    request,
    {
      name: 'reset-password',
      schema: resetFormSchema,
      run: (input) => resetPassword(input, ip),
      extra: { token: params.token },
    },
    async (value) =>
      redirect('/signin', {
        headers: { 'Set-Cookie': await toastHeader({ type: 'success', message: value.message }) },
      }),
  );
}

export default function ResetPassword() {
  const { usable, message } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  return (
    <section className="auth-page">
      <div className="auth-card card">
        <h1>Reset Password</h1>
        {usable ? (
          <>
            <p className="lead">Choose a new password of at least 9 characters.</p>
            <Form method="post" noValidate className="form">
              <label>
                New Password
                <input name="password" type="password" autoComplete="new-password" />
              </label>
              <label>
                Confirm Password
                <input name="confirmPassword" type="password" autoComplete="new-password" />
              </label>
              <button type="submit" className="button primary" disabled={busy}>
                Submit
              </button>
              <FormFeedback result={result} />
            </Form>
          </>
        ) : (
          <p className="lead" role="alert">
            {message}. <Link to="/forgot">Ask for a new link</Link>.
          </p>
        )}
        <p className="auth-links">
          <Link to="/signin">Back to SignIn</Link>
        </p>
      </div>
    </section>
  );
}

export const ErrorBoundary = FormErrorBoundary;

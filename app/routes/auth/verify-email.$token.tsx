import {
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { FormErrorBoundary, FormFeedback } from '~/components/form-feedback';
import { emailChangeFor } from '~/models/email-changes.server';
import { confirmEmailChange } from '~/services/accounts/profile.server';
import { emailChangeSchema } from '~/services/accounts/schemas.server';
import { MESSAGES } from '~/services/accounts/messages.server';
import authStyles from '~/styles/auth.css?url';
import { formAction } from '~/utils/actions.server';
import { toastHeader } from '~/utils/toast.server';
import { siteName } from '~/utils/meta';

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: authStyles }];
export const meta: MetaFunction = ({ matches }) => [
  { title: `Confirm Email | ${siteName(matches)}` },
];

/**
 * The link sent to a new email address. Opening it only shows what it would do; the change is a
 * POST, so a mail scanner or a prefetch that opens links changes nothing.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const newEmail = (await emailChangeFor(params.token ?? '')) ?? null;
  return { newEmail, message: newEmail ? null : MESSAGES.badEmailChangeToken };
}

export async function action({ request, params }: ActionFunctionArgs) {
  return formAction(
    request,
    {
      name: 'verify-email',
      schema: emailChangeSchema,
      run: confirmEmailChange,
      extra: { token: params.token },
    },
    async (value) =>
      // A signed-in member sees their profile; anyone else is asked to sign in first.
      redirect('/profile', {
        headers: { 'Set-Cookie': await toastHeader({ type: 'success', message: value.message }) },
      }),
  );
}

export default function VerifyEmail() {
  const { newEmail, message } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  return (
    <section className="auth-page">
      <div className="auth-card card">
        <h1>Confirm Email</h1>
        {newEmail ? (
          <Form method="post" noValidate className="form">
            <p className="lead">
              Use <strong data-testid="new-email">{newEmail}</strong> as the email of your account?
            </p>
            <button type="submit" className="button primary" disabled={busy}>
              Confirm Email
            </button>
            <FormFeedback result={result} />
          </Form>
        ) : (
          <p className="lead" role="alert">
            {message}. Ask for a new one from your <Link to="/profile">profile</Link>.
          </p>
        )}
      </div>
    </section>
  );
}

export const ErrorBoundary = FormErrorBoundary;

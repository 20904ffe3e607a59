import { formAction } from '~/utils/actions.server';
import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import { FormErrorBoundary, FormFeedback } from '~/components/form-feedback';
import { profileSchema, updateProfile } from '~/services/accounts.server';
import authStyles from '~/styles/auth.css?url';
import { requireUser } from '~/utils/auth.server';
import { formResult } from '~/utils/responses.server';

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: authStyles }];
export const meta: MetaFunction = () => [{ title: 'Profile | CourseGen' }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return { name: user.name, email: user.email };
}

export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  return formAction(
    request,
    { name: 'profile', schema: profileSchema, run: (input) => updateProfile(user, input) },
    // A new password ended every session; this browser gets a fresh one.
    (value) =>
      formResult(
        200,
        value.message,
        true,
        value.cookie ? { 'Set-Cookie': value.cookie } : undefined,
      ),
  );
}

export default function Profile() {
  const { name, email } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const form = useRef<HTMLFormElement>(null);

  // After a save the fields show the stored values again and the password box empties.
  useEffect(() => {
    if (result?.success) form.current?.reset();
  }, [result]);

  return (
    <section className="auth-page">
      <div className="auth-card card">
        <h1>Profile</h1>
        <p className="lead">Change your name, email or password.</p>
        <Form method="post" noValidate className="form" ref={form}>
          <label>
            Name
            <input name="mName" type="text" autoComplete="name" defaultValue={name} />
          </label>
          <label>
            Email
            <input name="email" type="email" autoComplete="email" defaultValue={email} />
          </label>
          <label>
            New Password
            <input
              name="password"
              type="password"
              autoComplete="new-password"
              aria-describedby="password-hint"
            />
          </label>
          <p id="password-hint" className="hint">
            Leave empty to keep your password.
          </p>
          <label>
            Current Password
            <input
              name="currentPassword"
              type="password"
              autoComplete="current-password"
              aria-describedby="current-password-hint"
            />
          </label>
          <p id="current-password-hint" className="hint">
            Needed to change your email or password.
          </p>
          <button type="submit" className="button primary" disabled={busy}>
            Submit
          </button>
          <FormFeedback result={result} />
        </Form>
        <div className="profile-actions">
          <Link to="/subscription" className="button">
            Manage Subscriptions
          </Link>
        </div>
      </div>
    </section>
  );
}

export const ErrorBoundary = FormErrorBoundary;

import { formAction } from '~/utils/actions.server';
import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useEffect, useRef } from 'react';
import { ApiTokens, type TokenResult } from '~/components/api-tokens';
import { FormErrorBoundary, FormFeedback } from '~/components/form-feedback';
import { profileSchema } from '~/services/accounts/schemas.server';
import { updateProfile } from '~/services/accounts/profile.server';
import {
  createApiToken,
  createTokenSchema,
  listApiTokens,
  MAX_API_TOKENS,
  revokeApiToken,
  revokeTokenSchema,
} from '~/services/api-tokens.server';
import authStyles from '~/styles/auth.css?url';
import { pendingEmailChange } from '~/models/email-changes.server';
import { requireUser } from '~/utils/auth.server';
import { clientIp } from '~/utils/rate-limit.server';
import { formResult } from '~/utils/responses.server';

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: authStyles }];
export const meta: MetaFunction = () => [{ title: 'Profile | CourseGen' }];

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  return {
    name: user.name,
    email: user.email,
    pendingEmail: (await pendingEmailChange(user.id)) ?? null,
    tokens: (await listApiTokens(user.id)).map((token) => ({
      id: token.id,
      name: token.name,
      createdAt: token.createdAt.toISOString(),
      lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
    })),
    maxTokens: MAX_API_TOKENS,
  };
}

/** Which of the page's forms was sent: the profile's (no intent) or an API token's. */
async function intentOf(request: Request): Promise<string> {
  const body = await request
    .clone()
    .formData()
    .catch(() => null);
  const intent = body?.get('intent');
  return typeof intent === 'string' ? intent : 'profile';
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const intent = await intentOf(request);
  if (intent === 'create-token')
    return formAction(
      request,
      {
        name: 'api-token.create',
        schema: createTokenSchema,
        run: (input) => createApiToken(user, input),
      },
      // The token travels in this one answer only: it is stored hashed.
      ({ token, message }) => ({ success: true, message, intent, token }) satisfies TokenResult,
    );
  if (intent === 'revoke-token')
    return formAction(
      request,
      {
        name: 'api-token.revoke',
        schema: revokeTokenSchema,
        run: (input) => revokeApiToken(user, input),
      },
      ({ message }) => formResult(200, message, true),
    );
  const ip = clientIp(context);
  return formAction(
    request,
    { name: 'profile', schema: profileSchema, run: (input) => updateProfile(user, input, ip) },
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
  const { name, email, pendingEmail, tokens, maxTokens } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const tokenResult = actionData && 'intent' in actionData ? actionData : undefined;
  const result = tokenResult ? undefined : actionData;
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && !navigation.formData?.get('intent');
  const form = useRef<HTMLFormElement>(null);

  // After a save the fields show the stored values again (a new email only once confirmed) and
  // the password boxes empty.
  useEffect(() => {
    if (result?.success) form.current?.reset();
  }, [result]);

  return (
    <section className="auth-page profile-page">
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
            <input
              name="email"
              type="email"
              autoComplete="email"
              defaultValue={email}
              aria-describedby={pendingEmail ? 'pending-email' : undefined}
            />
          </label>
          {pendingEmail ? (
            <p id="pending-email" className="hint" data-testid="pending-email">
              Waiting for confirmation: {pendingEmail}. Your email changes when the link sent there
              is followed.
            </p>
          ) : null}
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
      <ApiTokens tokens={tokens} max={maxTokens} result={tokenResult} />
    </section>
  );
}

export const ErrorBoundary = FormErrorBoundary;

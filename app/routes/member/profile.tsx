import { formAction } from '~/utils/actions.server';
import { data, redirect } from '@remix-run/node';
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
import { deleteAccount } from '~/services/accounts/account-deletion.server';
import { destroySession, requireUser } from '~/utils/auth.server';
import { toastHeader } from '~/utils/toast.server';
import { clientIp } from '~/utils/rate-limit.server';
import { formResult, withCookies } from '~/utils/responses.server';
import { siteName } from '~/utils/meta';

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: authStyles }];
export const meta: MetaFunction = ({ matches }) => [{ title: `Profile | ${siteName(matches)}` }];

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
  if (intent === 'delete-account') {
    const form = await request.formData();
    const password = form.get('password');
    const result = await deleteAccount(user, {
      password: typeof password === 'string' ? password : undefined,
    });
    if (!result.ok)
      return data(
        { success: false, message: result.message, intent: 'delete-account' as const },
        { status: result.status },
      );
    // The session's row is gone with the account; the cookie goes too.
    return redirect('/', {
      headers: withCookies(
        await destroySession(request),
        await toastHeader({ type: 'success', message: result.value.message }),
      ),
    });
  }
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
  // Which form answered: the profile's (no intent), an API token's or the deletion's.
  const answered = actionData as { intent?: string; success: boolean; message: string } | undefined;
  const intent = answered?.intent;
  const tokenResult = intent === 'create-token' ? (actionData as TokenResult) : undefined;
  const deleteResult =
    answered && intent === 'delete-account'
      ? { success: answered.success, message: answered.message }
      : undefined;
  const result = intent ? undefined : actionData;
  const navigation = useNavigation();
  const busy = navigation.state === 'submitting' && !navigation.formData?.get('intent');
  const deleting =
    navigation.state !== 'idle' && navigation.formData?.get('intent') === 'delete-account';
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
      <div className="auth-card card export-data" data-testid="export-data">
        <h2>Export my data</h2>
        <p>
          One zip with everything of yours: your account, plan, subscriptions and receipts, every
          course (as JSON and as Markdown), your notes, tutor conversations, quiz answers,
          flashcards with their reviews, and the text of your documents. A README in it says what
          each file is.
        </p>
        <a href="/profile/export.zip" className="button" download>
          Download my data (.zip)
        </a>
      </div>
      <div className="auth-card card delete-account" data-testid="delete-account">
        <h2>Delete account</h2>
        <p>
          Deletes your account and everything in it: your courses, notes, quiz answers, flashcards,
          documents and API tokens. A paid subscription is cancelled first. Receipts of your
          payments are kept as tax law requires, without your name, email or address. This cannot be
          undone.
        </p>
        <Form method="post" noValidate className="form">
          <input type="hidden" name="intent" value="delete-account" />
          <label>
            Password
            <input name="password" type="password" autoComplete="current-password" required />
          </label>
          <button type="submit" className="button danger" disabled={deleting}>
            {deleting ? 'Deleting…' : 'Delete my account'}
          </button>
          <FormFeedback result={deleteResult} />
        </Form>
      </div>
    </section>
  );
}

export const ErrorBoundary = FormErrorBoundary;

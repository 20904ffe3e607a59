import { formAction } from '~/utils/actions.server';
import {
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { FormErrorBoundary, FormFeedback } from '~/components/form-feedback';
import { signIn } from '~/services/accounts/sign-in.server';
import { signInSchema } from '~/services/accounts/schemas.server';
import authStyles from '~/styles/auth.css?url';
import { requireAnonymous, signedInRedirect } from '~/utils/auth.server';
import { clientIp } from '~/utils/rate-limit.server';
import { safeRedirect } from '~/utils/redirect';
import { siteName } from '~/utils/meta';

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: authStyles }];
export const meta: MetaFunction = ({ matches }) => [{ title: `SignIn | ${siteName(matches)}` }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  const redirectTo = new URL(request.url).searchParams.get('redirectTo');
  return { redirectTo: safeRedirect(redirectTo, '') };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAnonymous(request);
  const ip = clientIp(context);
  return formAction(
    request,
    {
      name: 'signin',
      schema: signInSchema,
      run: (input) => signIn(input, ip, request.headers.get('Cookie')),
    },
    async (value, body) => signedInRedirect(value, body.redirectTo),
  );
}

export default function SignIn() {
  const { redirectTo } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const signUpHref = redirectTo ? `/signup?${new URLSearchParams({ redirectTo })}` : '/signup';
  return (
    <section className="auth-page">
      <div className="auth-card card">
        <h1>SignIn to your account</h1>
        <p className="lead">Welcome back. Enter your email and password.</p>
        <Form method="post" noValidate className="form">
          {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
          <label>
            Email
            <input name="email" type="email" autoComplete="email" />
          </label>
          <label>
            Password
            <input name="password" type="password" autoComplete="current-password" />
          </label>
          <p className="auth-aside">
            <Link to="/forgot">Forgot Password?</Link>
          </p>
          <button type="submit" className="button primary" disabled={busy}>
            SignIn
          </button>
          <FormFeedback result={result} />
        </Form>
        <p className="auth-links">
          Don&apos;t have an account? <Link to={signUpHref}>SignUp</Link>
        </p>
      </div>
    </section>
  );
}

export const ErrorBoundary = FormErrorBoundary;

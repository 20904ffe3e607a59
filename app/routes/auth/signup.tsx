import { formAction } from '~/utils/actions.server';
import {
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { FormErrorBoundary, FormFeedback } from '~/components/form-feedback';
import { signUp } from '~/services/accounts/sign-up.server';
import { signUpSchema } from '~/services/accounts/schemas.server';
import authStyles from '~/styles/auth.css?url';
import { requireAnonymous, signedInRedirect } from '~/utils/auth.server';
import { safeRedirect } from '~/utils/redirect';
import { clientIp } from '~/utils/rate-limit.server';
import { siteName } from '~/utils/meta';

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: authStyles }];
export const meta: MetaFunction = ({ matches }) => [{ title: `SignUp | ${siteName(matches)}` }];

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
      name: 'signup',
      schema: signUpSchema,
      run: (input) => signUp(input, ip, request.headers.get('Cookie')),
    },
    async (value, body) => signedInRedirect(value, body.redirectTo),
  );
}

export default function SignUp() {
  const { redirectTo } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const busy = useNavigation().state === 'submitting';
  const signInHref = redirectTo ? `/signin?${new URLSearchParams({ redirectTo })}` : '/signin';
  return (
    <section className="auth-page">
      <div className="auth-card card">
        <h1>Create your account</h1>
        <p className="lead">Generate your first course in a minute. Free to start.</p>
        <Form method="post" noValidate className="form">
          {redirectTo ? <input type="hidden" name="redirectTo" value={redirectTo} /> : null}
          <label>
            Name
            <input name="mName" type="text" autoComplete="name" />
          </label>
          <label>
            Email
            <input name="email" type="email" autoComplete="email" />
          </label>
          <label>
            Password
            <input name="password" type="password" autoComplete="new-password" />
          </label>
          <button type="submit" className="button primary" disabled={busy}>
            SignUp
          </button>
          <FormFeedback result={result} />
        </Form>
        <p className="auth-links">
          Already have an account? <Link to={signInHref}>SignIn</Link>
        </p>
      </div>
    </section>
  );
}

export const ErrorBoundary = FormErrorBoundary;

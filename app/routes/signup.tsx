import {
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { FormErrorBoundary, FormFeedback } from '~/components/form-feedback';
import { signUp, signUpSchema } from '~/services/accounts.server';
import authStyles from '~/styles/auth.css?url';
import { requireAnonymous } from '~/utils/auth.server';
import { safeRedirect } from '~/utils/redirect';
import { formResult, guardForm, withCookies } from '~/utils/responses.server';
import { toastHeader } from '~/utils/toast.server';
import { parseWith, readBody } from '~/utils/validation.server';
import { clientIp } from '~/utils/rate-limit.server';

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: authStyles }];
export const meta: MetaFunction = () => [{ title: 'SignUp | CourseGen' }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAnonymous(request);
  const redirectTo = new URL(request.url).searchParams.get('redirectTo');
  return { redirectTo: safeRedirect(redirectTo, '') };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireAnonymous(request);
  return guardForm('signup', async () => {
    const body = await readBody(request);
    const parsed = parseWith(signUpSchema, body);
    if (!parsed.ok) return formResult(400, parsed.message);
    const result = await signUp(parsed.data, clientIp(context));
    if (!result.success) return formResult(result.status, result.message);
    const to = safeRedirect(typeof body.redirectTo === 'string' ? body.redirectTo : null, '/home');
    return redirect(to, {
      headers: withCookies(
        result.cookie,
        await toastHeader({ type: 'success', message: result.message }),
      ),
    });
  });
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

import { data, type ActionFunctionArgs, type MetaFunction } from '@remix-run/node';
import { Form, useActionData, useNavigation } from '@remix-run/react';
import { useEffect, useRef, useState } from 'react';
import { toast } from 'react-toastify';
import { CONTACT_LIMITS } from '~/domain/contact-limits';
import publicStyles from '~/styles/public.css?url';
import { submitContact } from '~/services/contact.server';
import { clientIp } from '~/utils/rate-limit.server';
import { readBody } from '~/utils/validation.server';
import { pageMeta } from '~/utils/meta';

export const links = () => [{ rel: 'stylesheet', href: publicStyles }];

export const meta: MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'Contact',
    description:
      'Enter your details and ask your query: questions about courses, plans or billing.',
  });

/** The page's form posts here; API clients use POST /api/contact (same rules, JSON). */
export async function action({ request, context }: ActionFunctionArgs) {
  const body = await readBody(request);
  const result = await submitContact(body, clientIp(context));
  if (result.ok)
    return data(
      { success: true, message: result.value.message, fields: undefined },
      { status: 200 },
    );
  // The typed values come back, so a page without JavaScript can refill the form.
  const fields = Object.fromEntries(FIELDS.map((name) => [name, String(body[name] ?? '')]));
  const headers: HeadersInit = result.retryAfterSeconds
    ? { 'Retry-After': String(result.retryAfterSeconds) }
    : {};
  return data(
    { success: false, message: result.message, fields },
    { status: result.status, headers },
  );
}

const FIELDS = ['fname', 'lname', 'email', 'phone', 'msg'] as const;

export default function Contact() {
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const formRef = useRef<HTMLFormElement>(null);
  // Without JavaScript the outcome is shown in the page; with it, as a toast.
  const [hydrated, setHydrated] = useState(false);
  const sending = navigation.state === 'submitting';
  const fields = result?.fields;

  useEffect(() => setHydrated(true), []);
  useEffect(() => {
    if (!result) return;
    if (result.success) {
      toast.success(result.message);
      formRef.current?.reset();
    } else {
      toast.error(result.message);
    }
  }, [result]);

  return (
    <div className="page narrow contact-page">
      <h1>Contact</h1>
      <p className="lead">Enter your details and ask your query</p>
      {result && !hydrated ? (
        <p
          className={result.success ? 'form-notice success' : 'form-notice error'}
          role={result.success ? 'status' : 'alert'}
          data-testid="contact-notice"
        >
          {result.message}
        </p>
      ) : null}
      {/* noValidate: empty fields reach the server, which answers with the product's message. */}
      <Form method="post" className="form card" noValidate ref={formRef}>
        <div className="form-row">
          <label>
            First Name
            <input
              name="fname"
              autoComplete="given-name"
              maxLength={CONTACT_LIMITS.name}
              defaultValue={fields?.fname}
              required
            />
          </label>
          <label>
            Last Name
            <input
              name="lname"
              autoComplete="family-name"
              maxLength={CONTACT_LIMITS.name}
              defaultValue={fields?.lname}
              required
            />
          </label>
        </div>
        <label>
          Email
          <input
            name="email"
            type="email"
            autoComplete="email"
            maxLength={CONTACT_LIMITS.email}
            defaultValue={fields?.email}
            required
          />
        </label>
        <label>
          Phone
          <input
            name="phone"
            type="tel"
            inputMode="numeric"
            pattern="[0-9]*"
            autoComplete="tel"
            maxLength={CONTACT_LIMITS.phoneMax}
            defaultValue={fields?.phone}
            required
          />
        </label>
        <label>
          Message
          <textarea
            name="msg"
            rows={6}
            maxLength={CONTACT_LIMITS.message}
            defaultValue={fields?.msg}
            required
          />
        </label>
        <button type="submit" className="button primary" disabled={sending} aria-busy={sending}>
          Submit
        </button>
      </Form>
    </div>
  );
}

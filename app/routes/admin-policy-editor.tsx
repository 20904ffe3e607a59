import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, useActionData, useFetcher, useLoaderData } from '@remix-run/react';
import { useEffect, useRef, useState } from 'react';
import { FormFeedback } from '~/components/form-feedback';
import { POLICY_PAGES, type PolicyPage } from '~/domain/policy-pages';
import { getPolicy } from '~/models/policies.server';
import { savePolicyText } from '~/services/admin.server';
import { requireAdmin } from '~/utils/auth.server';
import { formResult } from '~/utils/responses.server';
import { sanitizeHtml } from '~/utils/sanitize-html.server';
import { readBody } from '~/utils/validation.server';

/** The five policy editors (/editterms ... /editbilling) are this module, registered per path in app/routes.ts. */
function pageAt(pathname: string): PolicyPage {
  const page = Object.values(POLICY_PAGES).find(
    (candidate) => `/edit${candidate.path.slice(1)}` === pathname,
  );
  if (!page) throw new Response('Not Found', { status: 404 });
  return page;
}

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.page.title ?? 'Policy'} | Admin Panel` },
];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  const page = pageAt(new URL(request.url).pathname);
  return { page, html: await getPolicy(page.key) };
}

const MAX_POLICY_LENGTH = 200_000;

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireAdmin(request);
  const page = pageAt(new URL(request.url).pathname);
  const body = await readBody(request);
  const html = typeof body.html === 'string' ? body.html : '';
  if (html.length > MAX_POLICY_LENGTH)
    return formResult(413, `Please keep the text under ${MAX_POLICY_LENGTH} characters`);
  // The live preview: what the public page would show, sanitized exactly as it will be.
  if (body.intent === 'preview') return { success: true, message: '', preview: sanitizeHtml(html) };
  if (!html.trim()) return formResult(400, 'Please fill in all required fields');
  const result = await savePolicyText(actor, page.key, html);
  return result.ok
    ? formResult(200, result.value.message, true)
    : formResult(result.status, result.message);
}

export default function PolicyEditor() {
  const { page, html } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const preview = useFetcher<{ preview: string }>();
  const [text, setText] = useState(html);
  const area = useRef<HTMLTextAreaElement>(null);
  const { submit } = preview;

  useEffect(() => {
    const element = area.current;
    if (element) {
      element.style.height = 'auto';
      element.style.height = `${element.scrollHeight}px`;
    }
    const timer = setTimeout(
      () => submit({ intent: 'preview', html: text }, { method: 'post' }),
      300,
    );
    return () => clearTimeout(timer);
  }, [text, submit]);

  return (
    <section className="policy-editor">
      <h1>{page.title}</h1>
      <Form method="post">
        <textarea
          ref={area}
          name="html"
          aria-label={page.title}
          placeholder={`Write your ${page.noun} here in HTML format`}
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
        <button type="submit" name="intent" value="save" className="button primary">
          Submit
        </button>
      </Form>
      <FormFeedback result={result && 'preview' in result ? undefined : result} />
      <h2>Preview</h2>
      <div
        className="policy-preview"
        data-testid="policy-preview"
        // Sanitized on the server by the preview action, as the public page will be.
        dangerouslySetInnerHTML={{ __html: preview.data?.preview ?? '' }}
      />
    </section>
  );
}

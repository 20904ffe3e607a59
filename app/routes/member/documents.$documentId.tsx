import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { getDocumentForUser } from '~/models/source-documents.server';
import courseStyles from '~/styles/course.css?url';
import { requireUser } from '~/utils/auth.server';
import { siteName } from '~/utils/meta';

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: courseStyles }];
export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  {
    title: data
      ? `${data.document.name} | ${siteName(matches)}`
      : `Document | ${siteName(matches)}`,
  },
];

const KIND_LABELS = {
  pdf: 'PDF',
  docx: 'Word document',
  markdown: 'Markdown',
  text: 'Text file',
  pasted: 'Pasted text',
} as const;

/**
 * The text read from a member's material, section by section, as the AI was given it (ADR 0032):
 * lessons' "Sources" link here. Its owner's only: anyone else gets the same 404 as for a
 * document that never existed.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const document = await getDocumentForUser(params.documentId ?? '', user.id);
  if (!document) throw new Response('Not Found', { status: 404 });
  return {
    document: {
      name: document.name,
      kind: KIND_LABELS[document.kind],
      pageCount: document.pageCount,
      charCount: document.charCount,
      courseId: document.courseId,
      outlineId: document.outlineId,
      sections: document.sections,
    },
  };
}

export default function DocumentView() {
  const { document } = useLoaderData<typeof loader>();
  return (
    <section className="page narrow document-page">
      <h1>{document.name}</h1>
      <p className="muted">
        {document.kind}
        {document.pageCount === null ? '' : `, ${document.pageCount} pages`},{' '}
        {document.charCount.toLocaleString('en-US')} characters in {document.sections.length}{' '}
        sections. Only you can see it; deleting the course deletes it.
      </p>
      <p>
        {document.courseId ? (
          <Link to={`/course/${document.courseId}`}>Back to the course</Link>
        ) : (
          <Link to={`/topics/${document.outlineId}`}>Back to the outline</Link>
        )}
      </p>
      <ol className="document-sections" data-testid="document-sections">
        {document.sections.map((section, index) => (
          <li key={index} id={`section-${index + 1}`} className="card">
            <h2>
              {section.heading}
              {section.pageStart === undefined ? null : (
                <span className="muted">
                  {' '}
                  (
                  {section.pageStart === section.pageEnd
                    ? `page ${section.pageStart}`
                    : `pages ${section.pageStart}–${section.pageEnd}`}
                  )
                </span>
              )}
            </h2>
            <p className="document-text">{section.text}</p>
          </li>
        ))}
      </ol>
    </section>
  );
}

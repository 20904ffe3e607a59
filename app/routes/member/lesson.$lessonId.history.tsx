import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData } from '@remix-run/react';
import { describeVersion, MAX_LESSON_VERSIONS } from '~/domain/lesson-editing';
import { diffLines, type DiffLine } from '~/domain/line-diff';
import {
  lessonHistory,
  lessonText,
  lessonVersionText,
  restoreLessonVersion,
} from '~/services/lesson-editing.server';
import { lessonOfMember } from '~/services/member-lessons.server';
import courseStyles from '~/styles/course.css?url';
import { requireUser } from '~/utils/auth.server';
import { toastHeader } from '~/utils/toast.server';
import { readBody } from '~/utils/validation.server';
import { siteName } from '~/utils/meta';

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: courseStyles }];
export const meta: MetaFunction = ({ matches }) => [
  { title: `Lesson history | ${siteName(matches)}` },
];

async function memberLesson(request: Request, lessonId: string | undefined) {
  const user = await requireUser(request);
  const lesson = await lessonOfMember(lessonId, user.id);
  if (!lesson) throw new Response('Not Found', { status: 404 });
  return lesson;
}

/**
 * A lesson's kept versions (ADR 0059); `?version=` shows one beside the current text, and the
 * lines of Markdown that differ between them (ADR 0061).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const lesson = await memberLesson(request, params.lessonId);
  const versions = await lessonHistory(lesson);
  const asked = new URL(request.url).searchParams.get('version');
  let viewed = null;
  if (asked !== null) {
    const found = await lessonVersionText(lesson, Number(asked));
    if (!found.ok) throw new Response(found.message, { status: 404 });
    viewed = found.value;
  }
  return {
    lesson: { id: lesson.id, courseId: lesson.courseId, title: lesson.title, html: lesson.theory },
    versions,
    viewed,
    changes: viewed ? diffLines(viewed.markdown, (await lessonText(lesson)).markdown) : null,
  };
}

/** intent=restore, versionId: the version becomes the lesson's text again, as a new version. */
export async function action({ request, params }: ActionFunctionArgs) {
  const lesson = await memberLesson(request, params.lessonId);
  const body = await readBody(request);
  const restored = await restoreLessonVersion(lesson, Number(body.versionId));
  if (!restored.ok) return data({ message: restored.message }, { status: restored.status });
  return redirect(`/course/${lesson.courseId}?lesson=${lesson.id}`, {
    headers: {
      'Set-Cookie': await toastHeader({ type: 'success', message: 'Version restored.' }),
    },
  });
}

export default function LessonHistory() {
  const { lesson, versions, viewed, changes } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const numberOf = (versionId: number) =>
    versions.length - versions.findIndex((version) => version.id === versionId);
  return (
    <main className="container lesson-history" data-testid="lesson-history">
      <p>
        <Link to={`/course/${lesson.courseId}?lesson=${lesson.id}`}>← Back to the lesson</Link>
        {' · '}
        <Link to={`/lesson/${lesson.id}/edit`}>Edit lesson</Link>
      </p>
      <h1>History of “{lesson.title}”</h1>
      <p className="muted">
        The last {MAX_LESSON_VERSIONS} versions of a lesson are kept. Restoring one makes it a new
        version; nothing is lost.
      </p>
      {answer?.message ? (
        <p className="error-text" role="alert" data-testid="history-error">
          {answer.message}
        </p>
      ) : null}
      <ol className="version-list" reversed data-testid="versions">
        {versions.map((version) => (
          <li key={version.id} data-testid="version" data-kind={version.kind}>
            <strong>Version {numberOf(version.id)}</strong>: {describeVersion(version)},{' '}
            <time dateTime={version.createdAt}>
              {new Date(version.createdAt).toUTCString().replace(':00 GMT', ' UTC')}
            </time>
            {version.current ? (
              <span className="muted"> (current)</span>
            ) : (
              <>
                {' · '}
                <Link
                  to={`?version=${version.id}`}
                  aria-label={`View version ${numberOf(version.id)}`}
                >
                  View
                </Link>
                <Form method="post" className="inline-form">
                  <input type="hidden" name="versionId" value={version.id} />
                  <button
                    type="submit"
                    className="link-button"
                    aria-label={`Restore version ${numberOf(version.id)}`}
                  >
                    Restore
                  </button>
                </Form>
              </>
            )}
          </li>
        ))}
      </ol>
      {viewed && changes ? <LineChanges version={numberOf(viewed.id)} lines={changes} /> : null}
      {viewed ? (
        <div className="version-compare">
          <section aria-labelledby="viewed-version" data-testid="viewed-version">
            <h2 id="viewed-version">
              Version {numberOf(viewed.id)}: {viewed.title}
            </h2>
            <div
              className="theory"
              // Stored sanitized, as every lesson text is.
              dangerouslySetInnerHTML={{ __html: viewed.html }}
            />
          </section>
          <section aria-labelledby="current-version">
            <h2 id="current-version">Current: {lesson.title}</h2>
            <div className="theory" dangerouslySetInnerHTML={{ __html: lesson.html ?? '' }} />
          </section>
        </div>
      ) : null}
    </main>
  );
}

const MARKS = {
  added: { sign: '+', word: 'Added' },
  removed: { sign: '−', word: 'Removed' },
  same: { sign: ' ', word: 'Unchanged' },
} as const;

/**
 * The Markdown of an earlier version against the current one, line by line. Each changed line
 * says what happened in words and a sign (+, −) as well as in colour, and is an <ins> or <del>.
 */
function LineChanges({ version, lines }: { version: number; lines: DiffLine[] }) {
  const added = lines.filter((line) => line.kind === 'added').length;
  const removed = lines.filter((line) => line.kind === 'removed').length;
  return (
    <section aria-labelledby="line-changes" className="line-changes" data-testid="line-diff">
      <h2 id="line-changes">Changes from version {version} to the current text</h2>
      <p className="muted" data-testid="line-diff-summary">
        {added === 0 && removed === 0
          ? 'The Markdown of both is the same.'
          : `${added} line${added === 1 ? '' : 's'} added, ${removed} removed (in Markdown). Removed lines are only in version ${version}, added lines only in the current text.`}
      </p>
      <ol className="line-diff">
        {lines.map((line, index) => {
          const mark = MARKS[line.kind];
          const content = (
            <>
              <span className="diff-sign" aria-hidden="true">
                {mark.sign}
              </span>
              <span className="diff-word">{mark.word}: </span>
              {line.text || '\u00a0'}
            </>
          );
          return (
            <li key={index} className={`diff-${line.kind}`} data-kind={line.kind}>
              {line.kind === 'added' ? (
                <ins>{content}</ins>
              ) : line.kind === 'removed' ? (
                <del>{content}</del>
              ) : (
                content
              )}
            </li>
          );
        })}
      </ol>
    </section>
  );
}

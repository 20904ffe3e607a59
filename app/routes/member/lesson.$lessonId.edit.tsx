import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { Form, Link, useActionData, useFetcher, useLoaderData } from '@remix-run/react';
import { useEffect, useId, useState } from 'react';
import { MAX_LESSON_MARKDOWN_CHARS, MAX_LESSON_TITLE_CHARS } from '~/domain/lesson-editing';
import { editLesson, lessonText, previewLessonMarkdown } from '~/services/lesson-editing.server';
import { lessonOfMember } from '~/services/member-lessons.server';
import courseStyles from '~/styles/course.css?url';
import { requireUser } from '~/utils/auth.server';
import { toastHeader } from '~/utils/toast.server';
import { readBody } from '~/utils/validation.server';
import type { RouteBodyLimit } from '~/load-context';
import { MAX_COURSE_BODY_BYTES } from '~/domain/content-limits';
import { siteName } from '~/utils/meta';

/** A lesson's Markdown, form-encoded, may be several times its characters. */
export const bodyLimit: RouteBodyLimit = { bytes: MAX_COURSE_BODY_BYTES };

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: courseStyles }];
export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  {
    title: data
      ? `Edit lesson: ${data.lesson.title} | ${siteName(matches)}`
      : `Edit lesson | ${siteName(matches)}`,
  },
];

async function memberLesson(request: Request, lessonId: string | undefined) {
  const user = await requireUser(request);
  const lesson = await lessonOfMember(lessonId, user.id);
  if (!lesson) throw new Response('Not Found', { status: 404 });
  return { user, lesson };
}

/** The editor of a written lesson (ADR 0059): its title and Markdown, with what readers will see. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const { lesson } = await memberLesson(request, params.lessonId);
  const text = await lessonText(lesson);
  return data(
    { lesson: text },
    // A lesson being written or re-written cannot be edited: said on the page, with its status.
    { status: text.busy ? 409 : 200 },
  );
}

interface ActionAnswer {
  message?: string;
  preview?: string;
  title?: string;
  markdown?: string;
}

/**
 * intent=preview answers the HTML readers would see (the live preview, and the Preview button
 * without JavaScript); intent=save stores a new version and goes back to the lesson.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const { user, lesson } = await memberLesson(request, params.lessonId);
  const body = await readBody(request);
  const title = typeof body.title === 'string' ? body.title : '';
  const markdown = typeof body.markdown === 'string' ? body.markdown : '';
  if (body.intent === 'preview') {
    const preview = previewLessonMarkdown(body.markdown);
    return preview.ok
      ? data<ActionAnswer>({ preview: preview.value, title, markdown })
      : data<ActionAnswer>(
          { message: preview.message, title, markdown },
          { status: preview.status },
        );
  }
  const saved = await editLesson(user.id, lesson, body);
  if (!saved.ok)
    return data<ActionAnswer>(
      { message: saved.message, title, markdown },
      { status: saved.status },
    );
  return redirect(`/course/${lesson.courseId}?lesson=${lesson.id}`, {
    headers: { 'Set-Cookie': await toastHeader({ type: 'success', message: 'Lesson saved.' }) },
  });
}

const PREVIEW_DELAY_MS = 400;

export default function EditLesson() {
  const { lesson } = useLoaderData<typeof loader>();
  const answer = useActionData<typeof action>();
  const id = useId();
  const [title, setTitle] = useState(answer?.title ?? lesson.title);
  const [markdown, setMarkdown] = useState(answer?.markdown ?? lesson.markdown);
  const preview = useFetcher<typeof action>({ key: `lesson-preview-${lesson.lessonId}` });
  const submitPreview = preview.submit;

  // The live preview: the server renders it the way it will store it, a moment after typing stops.
  useEffect(() => {
    if (markdown === lesson.markdown) return;
    const timer = setTimeout(
      () => submitPreview({ intent: 'preview', markdown }, { method: 'post' }),
      PREVIEW_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [markdown, lesson.markdown, submitPreview]);

  const shown =
    (markdown !== lesson.markdown ? preview.data?.preview : undefined) ??
    answer?.preview ??
    lesson.html;
  const back = `/course/${lesson.courseId}?lesson=${lesson.lessonId}`;

  return (
    <main className="container lesson-editor" data-testid="lesson-editor">
      <p>
        <Link to={back}>← Back to the lesson</Link>
        {' · '}
        <Link to={`/lesson/${lesson.lessonId}/history`}>History</Link>
      </p>
      <h1>Edit lesson</h1>
      {lesson.busy ? (
        <p className="error-text" role="alert" data-testid="edit-busy">
          This lesson is being written or re-written right now. You can edit it once the new text is
          ready.
        </p>
      ) : (
        <Form method="post" className="lesson-edit-form" aria-labelledby={`${id}-legend`}>
          <p id={`${id}-legend`} className="muted">
            Write in Markdown. Readers see the preview below, cleaned the same way as the text the
            AI writes.
          </p>
          <label htmlFor={`${id}-title`}>Title</label>
          <input
            id={`${id}-title`}
            name="title"
            type="text"
            required
            maxLength={MAX_LESSON_TITLE_CHARS}
            value={title}
            onChange={(event) => setTitle(event.target.value)}
          />
          <label htmlFor={`${id}-markdown`}>Text (Markdown)</label>
          <textarea
            id={`${id}-markdown`}
            name="markdown"
            rows={18}
            maxLength={MAX_LESSON_MARKDOWN_CHARS}
            value={markdown}
            onChange={(event) => setMarkdown(event.target.value)}
          />
          {answer?.message ? (
            <p className="error-text" role="alert" data-testid="edit-error">
              {answer.message}
            </p>
          ) : null}
          <div className="row">
            <button type="submit" name="intent" value="save" className="button primary">
              Save
            </button>
            <button type="submit" name="intent" value="preview" className="button">
              Preview
            </button>
            <Link to={back} className="button">
              Cancel
            </Link>
          </div>
        </Form>
      )}
      <section aria-labelledby={`${id}-preview`} className="lesson-preview">
        <h2 id={`${id}-preview`}>Preview</h2>
        <article className="lesson">
          <h3>{title}</h3>
          <div
            className="theory"
            data-testid="edit-preview"
            // Rendered and sanitized by the server (markdownToSafeHtml).
            dangerouslySetInnerHTML={{ __html: shown }}
          />
        </article>
      </section>
    </main>
  );
}

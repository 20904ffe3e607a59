import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import {
  Form,
  Link,
  useFetcher,
  useLoaderData,
  useRevalidator,
  type ClientActionFunctionArgs,
} from '@remix-run/react';
import { useCallback, useEffect, useMemo } from 'react';
import { z } from 'zod';
import { LessonImage } from '~/components/lesson-image';
import { LessonNotes } from '~/components/lesson-notes';
import { LessonStream } from '~/components/lesson-stream';
import { RegenerateLesson } from '~/components/regenerate-lesson';
import { ShareCourse } from '~/components/share-course';
import { TutorPanel } from '~/components/tutor-panel';
import { QuizLink } from '~/components/topic-quiz';
import { TopicCardsLink } from '~/components/topic-cards';
import { TimeZoneCookie } from '~/components/time-zone-cookie';
import { VideoFacade } from '~/components/video-facade';
import { ProgressCircle } from '~/components/progress-circle';
import { ExportLinks, ScormExportLink } from '~/components/export-links';
import { courseOutline, getCourseForUser, statusOfLessons } from '~/models/courses.server';
import type { CourseStatus } from '~/models/courses.server';
import { getCompletion } from '~/models/completions.server';
import { getLessonOfCourse, parseCredit } from '~/models/lessons.server';
import { documentIdOfCourse } from '~/models/source-documents.server';
import { describeSources } from '~/domain/material';
import { withJobService } from '~/services/course-generation.server';
import { openLesson } from '~/services/member-lessons.server';
import { readLessonNote } from '~/services/lesson-notes.server';
import { regenerationStatus } from '~/services/lesson-regeneration.server';
import { shareStateOf } from '~/services/course-sharing.server';
import { courseQuizzes } from '~/services/quizzes.server';
import { topicCardsOf } from '~/services/flashcards.server';
import courseStyles from '~/styles/course.css?url';
import studyStyles from '~/styles/study.css?url';
import { env } from '~/utils/env.server';
import { reviewClock } from '~/utils/review-clock.server';
import { requireUser } from '~/utils/auth.server';
import { truncateWords } from '~/utils/text';
import { useLongPoll } from '~/browser/use-long-poll';
import { parseWith, readBody } from '~/utils/validation.server';
import { progressOf } from '~/domain/progress';
import { courseExportRefusal, isPaidPlan } from '~/domain/plans';
import { plans } from '~/services/plans.server';
import { languageAttributes, languageOf } from '~/domain/languages';
import { siteName } from '~/utils/meta';

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: courseStyles },
  { rel: 'stylesheet', href: studyStyles },
];
export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  {
    title: data
      ? `${data.course.mainTopic} | ${siteName(matches)}`
      : `Course | ${siteName(matches)}`,
  },
];

async function ownCourse(user: { id: string }, courseId: string | undefined) {
  const course = await getCourseForUser(courseId ?? '', user.id);
  if (!course) throw new Response('Not Found', { status: 404 });
  return course;
}

/**
 * The course view: the outline, one lesson and the generation state. It only
 * reads, so a revalidation or a link prefetch changes nothing; the page tells
 * the action below which lesson the member actually opened.
 */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  // The outline is read beside the course, and shown only if the course is the member's.
  const [course, topics] = await Promise.all([
    ownCourse(user, params.courseId),
    courseOutline(params.courseId ?? ''),
  ]);
  const all = topics.flatMap((topic) => topic.lessons);
  const requested = Number(new URL(request.url).searchParams.get('lesson'));
  const selected = all.find((lesson) => lesson.id === requested) ?? all[0];
  if (!selected) throw new Response('Not Found', { status: 404 });

  // One read of the lessons: the outline, the status and the quizzes' state all come from it.
  const status = withJobService(statusOfLessons(course.id, all));
  const clock = reviewClock(request);
  const allWritten = all.every((item) => item.state === 'done');
  // The rest needs only the course and the lesson: read at once (on PostgreSQL each read is a
  // round trip of its own).
  const [found, cards, quizzes, completion, note, regeneration, share] = await Promise.all([
    getLessonOfCourse(selected.id, course.id),
    topicCardsOf(user, course.id, clock),
    courseQuizzes(course.id, user.id, {
      total: all.length,
      done: all.filter((item) => item.done).length,
    }),
    getCompletion(course.id),
    readLessonNote(user.id, selected.id),
    regenerationStatus(selected.id),
    shareStateOf(course.id, allWritten),
  ]);
  const lesson = found!;
  const table = await plans();
  const plan = table[user.plan];
  const scormRefusal = courseExportRefusal(plan, 'scorm');
  const paidScorm = [table.monthly, table.yearly].some(
    (paid) => !courseExportRefusal(paid, 'scorm'),
  );
  return {
    course: {
      id: course.id,
      mainTopic: course.mainTopic,
      type: course.type,
      completed: Boolean(completion),
      language: course.language,
    },
    topics,
    // Titles and scores only: a quiz's questions and answers never reach this page.
    quizzes,
    lesson: {
      id: lesson.id,
      title: lesson.title,
      state: lesson.state,
      attempts: lesson.attempts,
      mediaState: lesson.mediaState,
      // Sanitized when stored, by every writer (ADR 7): reading is only reading.
      theory: lesson.theory ?? null,
      imageUrl: lesson.imageUrl,
      imageCredit: parseCredit(lesson.imageCredit),
      youtubeId: lesson.youtubeId,
      // The sections of the member's material it was written from (ADR 0032).
      sources: lesson.sources?.length
        ? {
            text: describeSources(lesson.sources),
            documentId: await documentIdOfCourse(course.id),
            firstSection: lesson.sources[0]!.section + 1,
          }
        : null,
    },
    // Each topic's flashcards (counts only), or null when the plan leaves them out.
    flashcards: cards ? Object.fromEntries(cards) : null,
    timeZone: clock.timeZone,
    // The member's own notes on this lesson, and where a re-write of it stands.
    note: note.body,
    regeneration,
    status,
    share,
    downloads: plan.limits.exports,
    // The SCORM package (ADR 34): once every lesson and quiz is written, on a plan that includes
    // it; offered to a free member when a paid plan has it, and to nobody else.
    scorm:
      scormRefusal === null || (!isPaidPlan(user.plan) && paidScorm)
        ? { refusal: scormRefusal, ready: allWritten && quizzes.every((quiz) => quiz.ready) }
        : null,
    // Demo mode's videos are made up: YouTube would show an error in their place.
    videosEmbeddable: !env().mocked.youtube,
  };
}

const openedSchema = z.object({
  lessonId: z.coerce.number().int().positive(),
  // 'viewed': the page showed the lesson (a fetcher); 'open': a plain form without JavaScript.
  intent: z.enum(['viewed', 'open']),
});

/** The member opened a lesson (`openLesson`): it counts as studied, or goes first in the queue. */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const course = await ownCourse(user, params.courseId);
  const parsed = parseWith(openedSchema, await readBody(request));
  if (!parsed.ok) return data({ ok: false }, { status: 400 });
  const { lessonId, intent } = parsed.value;
  const lesson = await openLesson(course.id, lessonId);
  if (!lesson) throw new Response('Not Found', { status: 404 });
  if (intent === 'open') return redirect(`/course/${course.id}?lesson=${lesson.id}`);
  return { ok: true };
}

/**
 * The report of an opened lesson is a courtesy to the server: a failed one (the browser is
 * offline for a moment) must not replace the page with the error page. It answers `retry`, and
 * `useReportOpened` sends it again later.
 */
export async function clientAction({ serverAction }: ClientActionFunctionArgs) {
  try {
    return await serverAction<typeof action>();
  } catch {
    return { ok: false, retry: true };
  }
}

const REPORT_RETRY_MS = 5_000;

/**
 * Tells the server, once per lesson and state, that the page is showing this lesson; a report
 * that failed goes again when the browser is back online, or a few seconds later.
 */
function useReportOpened(lessonId: number, written: boolean) {
  const fetcher = useFetcher<typeof clientAction>();
  const { submit } = fetcher;
  const failed = fetcher.state === 'idle' && fetcher.data && 'retry' in fetcher.data;
  useEffect(() => {
    submit({ intent: 'viewed', lessonId }, { method: 'post' });
  }, [lessonId, written, submit]);
  useEffect(() => {
    if (!failed) return;
    const again = () => submit({ intent: 'viewed', lessonId }, { method: 'post' });
    const timer = setTimeout(again, REPORT_RETRY_MS);
    window.addEventListener('online', again, { once: true });
    return () => {
      clearTimeout(timer);
      window.removeEventListener('online', again);
    };
  }, [failed, lessonId, submit]);
}

type LessonState = CourseStatus['lessons'][number];

/** The fresher of two views of a lesson: generation and `done` only ever move forward. */
function merge(a: LessonState, b: LessonState | undefined): LessonState {
  if (!b) return a;
  return {
    id: a.id,
    done: a.done || b.done,
    state: a.state === 'done' || b.state === 'done' ? 'done' : b.state,
    attempts: Math.max(a.attempts, b.attempts),
    mediaState: a.mediaState === 'done' || b.mediaState === 'done' ? 'done' : b.mediaState,
  };
}

const finished = (status: CourseStatus) => !status.generating;

export default function CourseView() {
  const {
    course,
    topics,
    quizzes,
    lesson,
    status: loaded,
    videosEmbeddable,
    note,
    regeneration,
    share,
    flashcards,
    timeZone,
    scorm,
    downloads,
  } = useLoaderData<typeof loader>();
  const polled = useLongPoll(`/status/course/${course.id}`, loaded, finished);
  const revalidator = useRevalidator();
  const { revalidate } = revalidator;
  const reload = useCallback(() => revalidate(), [revalidate]);
  useReportOpened(lesson.id, Boolean(lesson.theory));

  const states = useMemo(() => {
    const fromPoll = new Map(polled.lessons.map((l) => [l.id, l]));
    return new Map(loaded.lessons.map((l) => [l.id, merge(l, fromPoll.get(l.id))]));
  }, [loaded, polled]);
  const all = [...states.values()];
  const progress = progressOf(all);
  const current = states.get(lesson.id);
  const contentArrived =
    (current?.state === 'done' && !lesson.theory) ||
    (current?.mediaState === 'done' && lesson.mediaState !== 'done');

  useEffect(() => {
    if (contentArrived && revalidator.state === 'idle') revalidator.revalidate();
  }, [contentArrived, revalidator]);

  const mediaWord = course.type === 'video' ? 'video' : 'image';
  // Course text in its own language and direction; the chrome around it stays English.
  const text = languageAttributes(course.language);
  return (
    <div className="course-page">
      <TimeZoneCookie used={timeZone} />
      <header className="course-bar">
        <h1 className="course-title" title={course.mainTopic} {...text}>
          <span className="title-mobile">{truncateWords(course.mainTopic, 6)}</span>
          <span className="title-desktop">{truncateWords(course.mainTopic, 10)}</span>
        </h1>
        <span className="muted course-language" data-testid="course-language">
          {languageOf(course.language).name}
        </span>
        <Link to={`/course/${course.id}/notes`} className="course-notes-link">
          My notes
        </Link>
        <ExportLinks courseId={course.id} title={course.mainTopic} formats={downloads}>
          {scorm ? (
            <ScormExportLink courseId={course.id} title={course.mainTopic} {...scorm} />
          ) : null}
        </ExportLinks>
        <ShareCourse courseId={course.id} share={share} />
        <Link
          to={`/course/${course.id}/delete`}
          className="course-delete-link"
          aria-label={`Delete course ${course.mainTopic}`}
        >
          Delete course
        </Link>
        <ProgressCircle progress={progress} courseId={course.id} />
      </header>
      <div className="course-layout">
        <nav className="course-sidebar" aria-label="Course topics">
          {topics.map((topic) => (
            <details key={topic.id} open>
              <summary {...text}>{topic.title}</summary>
              <ul>
                {topic.lessons.map((item) => {
                  const state = states.get(item.id) ?? item;
                  return (
                    <li key={item.id}>
                      <Link
                        to={`?lesson=${item.id}`}
                        aria-current={item.id === lesson.id ? 'page' : undefined}
                        data-state={state.state}
                        prefetch="intent"
                        preventScrollReset
                      >
                        <span className="lesson-title" {...text}>
                          {item.title}
                        </span>
                        {state.done ? (
                          <span className="done-mark" role="img" aria-label="done">
                            ✓
                          </span>
                        ) : state.state !== 'done' ? (
                          <span className="pending-mark" role="img" aria-label="being written">
                            …
                          </span>
                        ) : null}
                      </Link>
                      <noscript>
                        <Form method="post" className="open-lesson">
                          <input type="hidden" name="intent" value="open" />
                          <button type="submit" name="lessonId" value={item.id}>
                            Open {item.title}
                          </button>
                        </Form>
                      </noscript>
                    </li>
                  );
                })}
              </ul>
              <QuizLink
                quiz={quizzes.find((quiz) => quiz.topicId === topic.id)}
                courseId={course.id}
              />
              {flashcards ? (
                <TopicCardsLink
                  courseId={course.id}
                  topicId={topic.id}
                  counts={flashcards[topic.id]}
                />
              ) : null}
            </details>
          ))}
          <QuizLink quiz={quizzes.find((quiz) => quiz.kind === 'exam')} courseId={course.id} />
        </nav>
        <article className="lesson" data-testid="lesson" data-lesson-id={lesson.id}>
          <h2 {...text}>{lesson.title}</h2>
          {lesson.theory && lesson.sources ? (
            <p className="muted lesson-sources" data-testid="lesson-sources">
              {lesson.sources.documentId ? (
                <Link
                  to={`/documents/${lesson.sources.documentId}#section-${lesson.sources.firstSection}`}
                >
                  {lesson.sources.text}
                </Link>
              ) : (
                lesson.sources.text
              )}
            </p>
          ) : null}
          {lesson.theory ? (
            <>
              {course.type === 'video' && lesson.youtubeId ? (
                <VideoFacade
                  videoId={lesson.youtubeId}
                  title={lesson.title}
                  embeddable={videosEmbeddable}
                />
              ) : null}
              {course.type === 'text' && lesson.imageUrl ? (
                <LessonImage src={lesson.imageUrl} alt={lesson.title} credit={lesson.imageCredit} />
              ) : null}
              {lesson.mediaState !== 'done' ? (
                <p className="muted" data-testid="media-pending">
                  Looking for a {mediaWord} for this lesson…
                </p>
              ) : null}
              <div
                className="theory"
                data-testid="lesson-theory"
                {...text}
                // Sanitized when stored (see the loader).
                dangerouslySetInnerHTML={{ __html: lesson.theory }}
              />
              <p className="lesson-edit-links">
                <Link to={`/lesson/${lesson.id}/edit`} data-testid="edit-lesson">
                  Edit lesson
                </Link>
                <Link to={`/lesson/${lesson.id}/history`} data-testid="lesson-history-link">
                  History
                </Link>
              </p>
              <RegenerateLesson
                key={`${lesson.id}:${regeneration.version}`}
                status={regeneration}
                onChanged={reload}
              />
            </>
          ) : (
            <>
              <LessonStream
                lessonId={lesson.id}
                state={current?.state ?? lesson.state}
                attempts={current?.attempts ?? lesson.attempts}
                jobServiceDown={polled.jobServiceDown}
                onWritten={() => revalidator.revalidate()}
              />
              <noscript>
                <meta httpEquiv="refresh" content="3" />
              </noscript>
            </>
          )}
          <LessonNotes key={lesson.id} lessonId={lesson.id} initial={note} />
        </article>
        {lesson.theory ? <TutorPanel key={lesson.id} lessonId={lesson.id} /> : null}
      </div>
    </div>
  );
}

import {
  data,
  redirect,
  type ActionFunctionArgs,
  type HeadersFunction,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { FormFeedback } from '~/components/form-feedback';
import { LessonImage } from '~/components/lesson-image';
import { VideoFacade } from '~/components/video-facade';
import { languageAttributes, languageOf } from '~/domain/languages';
import { copySharedCourse, readSharedCourse, shareUrl } from '~/services/course-sharing.server';
import courseStyles from '~/styles/course.css?url';
import studyStyles from '~/styles/study.css?url';
import { getSessionUser, requireUser } from '~/utils/auth.server';
import { weakEtag } from '~/utils/conditional.server';
import { env } from '~/utils/env.server';
import { pageMeta } from '~/utils/meta';
import { formResult, guardForm } from '~/utils/responses.server';

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: courseStyles },
  { rel: 'stylesheet', href: studyStyles },
];

export const meta: MetaFunction<typeof loader> = ({ data, matches }) => {
  if (!data) return pageMeta(matches, { title: 'Not found', description: '', noIndex: true });
  const { course, url } = data;
  return [
    ...pageMeta(matches, {
      title: course.title,
      description: `A course in ${course.topics.length} topics and ${course.lessonCount} lessons, written with AI.`,
      // Shared by a link, not published: search engines are asked to leave it out.
      noIndex: true,
    }),
    { property: 'og:url', content: url },
    ...(course.photoUrl ? [{ property: 'og:image', content: course.photoUrl }] : []),
  ];
};

/**
 * Shared caches may keep the page a minute for visitors without cookies, who all see the same
 * page; anyone with a cookie (signed in, a theme, a toast) gets it for their browser only.
 * Either way the browser revalidates each time, and the ETag makes that a 304.
 */
export const headers: HeadersFunction = ({ loaderHeaders, parentHeaders }) => {
  const headers = new Headers(loaderHeaders);
  if (parentHeaders.has('Set-Cookie')) headers.set('Cache-Control', 'private, no-cache');
  return headers;
};

const PUBLIC_CACHE = 'public, max-age=0, s-maxage=60, must-revalidate';
const PRIVATE_CACHE = 'private, no-cache';

/** Anyone with the link reads the course; a revoked or made-up link is not found. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const token = params.token ?? '';
  const course = await readSharedCourse(token);
  if (!course) throw new Response('Not Found', { status: 404 });
  const cookie = request.headers.get('Cookie');
  const viewer = cookie ? await getSessionUser(request, context) : null;
  const { version, ...shown } = course;
  return data(
    {
      course: shown,
      signedIn: Boolean(viewer),
      url: shareUrl(token),
      videosEmbeddable: !env().mocked.youtube,
    },
    {
      headers: {
        'Cache-Control': cookie ? PRIVATE_CACHE : PUBLIC_CACHE,
        Vary: 'Cookie',
        // The page also shows who is signed in (the header) and their theme: the cookie says.
        ETag: weakEtag(version, cookie),
      },
    },
  );
}

/** Copy to my courses: signed-in members only; the copy opens at once. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  return guardForm('share-copy', async () => {
    const copied = await copySharedCourse(user, params.token ?? '');
    if (!copied.ok) return formResult(copied.status, copied.message);
    return redirect(`/course/${copied.value}`, 303);
  });
}

export default function SharedCoursePage() {
  const { course, signedIn, url, videosEmbeddable } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const copying = useNavigation().state !== 'idle';
  const text = languageAttributes(course.language);
  const signUpHref = `/signup?${new URLSearchParams({ redirectTo: new URL(url).pathname })}`;
  return (
    <div className="page shared-course" data-testid="shared-course">
      <header className="shared-course-header">
        <p className="muted">Shared course · {languageOf(course.language).name}</p>
        <h1 {...text}>{course.title}</h1>
        <p className="muted">
          {course.topics.length} topics · {course.lessonCount} lessons
        </p>
        {signedIn ? (
          <Form method="post" replace>
            <button type="submit" className="button" disabled={copying}>
              {copying ? 'Copying…' : 'Copy to my courses'}
            </button>
            <FormFeedback result={result} />
          </Form>
        ) : (
          <p>
            <Link className="button" to={signUpHref}>
              Sign up to copy this course
            </Link>
          </p>
        )}
      </header>
      <nav className="shared-outline" aria-label="Course topics">
        <ol>
          {course.topics.map((topic, t) => (
            <li key={t} {...text}>
              <a href={`#topic-${t + 1}`}>{topic.title}</a>
            </li>
          ))}
        </ol>
      </nav>
      {course.topics.map((topic, t) => (
        <section key={t} id={`topic-${t + 1}`} className="shared-topic">
          <h2 {...text}>{topic.title}</h2>
          {topic.lessons.map((lesson, l) => (
            <article key={l} className="lesson" data-testid="shared-lesson">
              <h3 {...text} data-testid="shared-lesson-title">
                {lesson.title}
              </h3>
              {lesson.youtubeId ? (
                <VideoFacade
                  videoId={lesson.youtubeId}
                  title={lesson.title}
                  embeddable={videosEmbeddable}
                />
              ) : null}
              {lesson.imageUrl ? (
                <LessonImage src={lesson.imageUrl} alt={lesson.title} credit={lesson.imageCredit} />
              ) : null}
              <div
                className="theory"
                {...text}
                // Sanitized when stored, by every writer (ADR 7).
                dangerouslySetInnerHTML={{ __html: lesson.theory }}
              />
            </article>
          ))}
        </section>
      ))}
    </div>
  );
}

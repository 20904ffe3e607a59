import { ExportLinks } from '~/components/export-links';
import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { languageAttributes } from '~/domain/languages';
import { getCourseForUser } from '~/models/courses.server';
import { courseNotesByTopic } from '~/services/lesson-notes.server';
import courseStyles from '~/styles/course.css?url';
import studyStyles from '~/styles/study.css?url';
import { requireUser } from '~/utils/auth.server';
import { planOf } from '~/services/plans.server';
import { siteName } from '~/utils/meta';

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: courseStyles },
  { rel: 'stylesheet', href: studyStyles },
];
export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  {
    title: data
      ? `Notes: ${data.course.mainTopic} | ${siteName(matches)}`
      : `Notes | ${siteName(matches)}`,
  },
  { name: 'robots', content: 'noindex' },
];

/** Every note the member wrote on this course, by topic, rendered from Markdown and sanitized. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const course = await getCourseForUser(params.courseId ?? '', user.id);
  if (!course) throw new Response('Not Found', { status: 404 });
  return {
    course: { id: course.id, mainTopic: course.mainTopic, language: course.language },
    topics: await courseNotesByTopic(user.id, course.id),
    downloads: (await planOf(user.plan)).limits.exports,
  };
}

export default function CourseNotes() {
  const { course, topics, downloads } = useLoaderData<typeof loader>();
  const text = languageAttributes(course.language);
  return (
    <section className="page course-notes" data-testid="course-notes">
      <p>
        <Link to={`/course/${course.id}`}>← Back to {course.mainTopic}</Link>
      </p>
      <h1>
        My notes: <span {...text}>{course.mainTopic}</span>
      </h1>
      {topics.length > 0 ? (
        <ExportLinks courseId={course.id} title={course.mainTopic} formats={downloads} withNotes />
      ) : null}
      {topics.length === 0 ? (
        <p className="muted">
          No notes yet. Open a lesson and write in its notes box: they are saved as you type.
        </p>
      ) : (
        topics.map((topic) => (
          <section key={topic.id} aria-labelledby={`topic-${topic.id}`}>
            <h2 id={`topic-${topic.id}`} {...text}>
              {topic.title}
            </h2>
            {topic.lessons.map((lesson) => (
              <article key={lesson.id} className="course-note" data-testid="course-note">
                <h3>
                  <Link to={`/course/${course.id}?lesson=${lesson.id}`} {...text}>
                    {lesson.title}
                  </Link>
                </h3>
                <div
                  className="course-note-body"
                  // Rendered from the member's Markdown and sanitized on the server.
                  dangerouslySetInnerHTML={{ __html: lesson.html }}
                />
              </article>
            ))}
          </section>
        ))
      )}
    </section>
  );
}

import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { listCoursesForUser } from '~/models/courses.server';
import courseStyles from '~/styles/course.css?url';
import { requireUser } from '~/utils/auth.server';
import { COURSE_TYPE_LABELS } from '~/domain/plans';
import { CertificateLink } from '~/components/certificate-link';
import { ExportLinks } from '~/components/export-links';
import { languageAttributes, languageOf } from '~/domain/languages';
import { QuizResultsLine } from '~/components/topic-quiz';
import { quizSummariesOfUser } from '~/models/quizzes.server';

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: courseStyles }];
export const meta: MetaFunction = () => [{ title: 'My Courses | CourseGen' }];

const TYPE_LABELS = COURSE_TYPE_LABELS;

/** The member's own courses, newest first (cards only: no lesson is read). */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const quizResults = quizSummariesOfUser(user.id);
  return {
    courses: listCoursesForUser(user.id).map((course) => ({
      id: course.id,
      mainTopic: course.mainTopic,
      type: course.type,
      photoUrl: course.photoUrl,
      createdAt: course.createdAt.toISOString(),
      completed: course.completedAt !== null,
      language: course.language,
      quizzes: quizResults.get(course.id) ?? { quizzes: 0, taken: 0, examBest: null },
    })),
  };
}

export default function Home() {
  const { courses } = useLoaderData<typeof loader>();
  return (
    <section className="page home-page">
      <h1>My Courses</h1>
      {courses.length === 0 ? (
        <div className="empty center">
          <p>Nothing Found</p>
          <Link to="/create" className="button primary">
            Generate Course
          </Link>
        </div>
      ) : (
        <ul className="course-cards">
          {courses.map((course) => (
            <li key={course.id} className="course-card card" data-testid="course-card">
              <img
                src={course.photoUrl ?? '/images/course-placeholder.svg'}
                alt=""
                width={400}
                height={225}
              />
              <h2 {...languageAttributes(course.language)}>{course.mainTopic.toUpperCase()}</h2>
              <p className="muted">{TYPE_LABELS[course.type]}</p>
              <p className="muted" data-testid="course-language">
                {languageOf(course.language).name}
              </p>
              <p className="muted">
                <time dateTime={course.createdAt}>
                  {new Date(course.createdAt).toLocaleDateString('en-GB', { timeZone: 'UTC' })}
                </time>
              </p>
              <QuizResultsLine summary={course.quizzes} />
              <div className="row">
                <Link
                  to={`/course/${course.id}`}
                  className="button primary"
                  aria-label={`Continue ${course.mainTopic}`}
                >
                  Continue
                </Link>
                {course.completed ? <CertificateLink courseId={course.id} /> : null}
                <ExportLinks courseId={course.id} title={course.mainTopic} />
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useFetcher, useLoaderData } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { coursePage, coursePageRequest, HOME_COURSE_PAGE } from '~/services/course-list.server';
import courseStyles from '~/styles/course.css?url';
import { requireUser } from '~/utils/auth.server';
import { planOf } from '~/services/plans.server';
import { COURSE_TYPE_LABELS } from '~/domain/plans';
import { CertificateLink } from '~/components/certificate-link';
import { ExportLinks } from '~/components/export-links';
import { languageAttributes, languageOf } from '~/domain/languages';
import { QuizResultsLine } from '~/components/topic-quiz';
import { quizSummariesOfUser } from '~/models/quizzes.server';
import { dueCountsOf } from '~/services/flashcards.server';
import { reviewClock } from '~/utils/review-clock.server';
import { TimeZoneCookie } from '~/components/time-zone-cookie';
import { flashcardsIncluded } from '~/domain/plans';
import { siteName } from '~/utils/meta';

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: courseStyles }];
export const meta: MetaFunction = ({ matches }) => [{ title: `My Courses | ${siteName(matches)}` }];

const TYPE_LABELS = COURSE_TYPE_LABELS;
// One formatter for every card: toLocaleDateString builds a new one per call, which was the
// largest cost of rendering /home.
const CARD_DATE = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC' });

/**
 * The member's own courses, newest first, a page at a time (cards only: no lesson is read).
 * `?cursor=` is the next page: "Load more" appends it with JavaScript and links to it without.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const query = new URL(request.url).searchParams;
  const paging = coursePageRequest(query, HOME_COURSE_PAGE);
  if (!paging.ok) throw new Response(paging.message, { status: paging.status });
  const clock = reviewClock(request);
  // The member's flashcards due today, across every course (the first page only), read beside
  // the page of courses (on PostgreSQL each read is a round trip of its own).
  const [page, cardsDue, plan] = await Promise.all([
    coursePage(user.id, paging.value),
    paging.value.after === null && flashcardsIncluded(user.plan)
      ? dueCountsOf(user, clock).then((due) => due.today)
      : null,
    planOf(user.plan),
  ]);
  const quizResults = await quizSummariesOfUser(
    user.id,
    page.courses.map((course) => course.id),
  );
  return {
    cardsDue,
    downloads: plan.limits.exports,
    timeZone: clock.timeZone,
    laterPage: paging.value.after !== null,
    nextCursor: page.nextCursor,
    courses: page.courses.map((course) => ({
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

type Page = Awaited<ReturnType<typeof loader>>;

/** The first page as loaded, then each page "Load more" fetched, in order. */
function usePages() {
  const first = useLoaderData<typeof loader>();
  const more = useFetcher<typeof loader>();
  const [pages, setPages] = useState<Page[]>([first]);
  // A revalidation (or another ?cursor= without JavaScript) starts the list over.
  useEffect(() => setPages([first]), [first]);
  useEffect(() => {
    const page = more.data;
    if (page && more.state === 'idle')
      setPages((shown) => (shown.includes(page) ? shown : [...shown, page]));
  }, [more.data, more.state]);
  const last = pages[pages.length - 1]!;
  return {
    courses: pages.flatMap((page) => page.courses),
    laterPage: first.laterPage,
    nextCursor: last.nextCursor,
    loading: more.state !== 'idle',
    loadMore: (cursor: string) => more.load(`/home?cursor=${encodeURIComponent(cursor)}`),
  };
}

/** How many flashcards are due today, and the way to the Review page. */
function CardsDue({ count }: { count: number }) {
  return (
    <p className="cards-due row" data-testid="cards-due">
      <span>
        Flashcards due today: <strong data-testid="cards-due-count">{count}</strong>
      </span>
      <Link to="/review" className={`button${count > 0 ? ' primary' : ''}`}>
        Review
      </Link>
    </p>
  );
}

export default function Home() {
  const { courses, laterPage, nextCursor, loading, loadMore } = usePages();
  const { cardsDue, downloads, timeZone } = useLoaderData<typeof loader>();
  return (
    <section className="page home-page">
      <TimeZoneCookie used={timeZone} />
      <h1>My Courses</h1>
      {cardsDue !== null ? <CardsDue count={cardsDue} /> : null}
      {laterPage ? (
        <p>
          <Link to="/home">Back to the newest courses</Link>
        </p>
      ) : null}
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
                  {CARD_DATE.format(new Date(course.createdAt))}
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
                <ExportLinks courseId={course.id} title={course.mainTopic} formats={downloads} />
                <Link
                  to={`/course/${course.id}/delete`}
                  className="button danger"
                  aria-label={`Delete ${course.mainTopic}`}
                >
                  Delete
                </Link>
              </div>
            </li>
          ))}
        </ul>
      )}
      {nextCursor ? (
        <div className="row center load-more">
          <Link
            to={`/home?cursor=${encodeURIComponent(nextCursor)}`}
            className="button"
            aria-busy={loading}
            onClick={(event) => {
              event.preventDefault();
              if (!loading) loadMore(nextCursor);
            }}
          >
            {loading ? 'Loading…' : 'Load more'}
          </Link>
        </div>
      ) : null}
    </section>
  );
}

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
  useActionData,
  useLoaderData,
  useLocation,
  useRevalidator,
} from '@remix-run/react';
import { useEffect } from 'react';
import { TimeZoneCookie } from '~/components/time-zone-cookie';
import { DECK_CHANGED_MESSAGE } from '~/domain/flashcards';
import { languageAttributes } from '~/domain/languages';
import { courseCards, rewriteDeck } from '~/services/flashcards.server';
import courseStyles from '~/styles/course.css?url';
import flashcardStyles from '~/styles/flashcards.css?url';
import { requireUser } from '~/utils/auth.server';
import { reviewClock } from '~/utils/review-clock.server';
import { toastHeader } from '~/utils/toast.server';
import { readBody } from '~/utils/validation.server';
import { siteName } from '~/utils/meta';

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: courseStyles },
  { rel: 'stylesheet', href: flashcardStyles },
];
export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  {
    title: data
      ? `Flashcards: ${data.course.mainTopic} | ${siteName(matches)}`
      : `Flashcards | ${siteName(matches)}`,
  },
  { name: 'robots', content: 'noindex' },
];

/** Every flashcard of one of the member's courses, by topic and lesson, to check and correct. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const clock = reviewClock(request);
  const view = await courseCards(user, params.courseId ?? '', clock);
  if (!view.ok) throw new Response(view.message, { status: view.status });
  return { ...view.value, timeZone: clock.timeZone };
}

/**
 * intent=rewrite, lessonId: the lesson's deck is written again from its current text (ADR 0061),
 * by its usual job; the page then shows it being written and looks again until it is.
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const body = await readBody(request);
  const lessonId = Number(body.lessonId);
  const rewritten = await rewriteDeck(user, params.courseId ?? '', lessonId);
  if (!rewritten.ok) {
    if (rewritten.status === 404) throw new Response('Not Found', { status: 404 });
    return data({ message: rewritten.message }, { status: rewritten.status });
  }
  return redirect(`/course/${rewritten.value.courseId}/cards#lesson-cards-${lessonId}`, {
    status: 303,
    headers: {
      'Set-Cookie': await toastHeader({
        type: 'success',
        message: 'The cards are being rewritten from the lesson as it is now.',
      }),
    },
  });
}

export default function CourseCards() {
  const { course, topics, writing, timeZone } = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  const location = useLocation();
  const { revalidate, state } = useRevalidator();
  useEffect(() => {
    if (writing === 0) return;
    const timer = setInterval(() => state === 'idle' && revalidate(), 2_000);
    return () => clearInterval(timer);
  }, [writing, revalidate, state]);
  const here = `${location.pathname}${location.search}`;
  const text = languageAttributes(course.language);
  const total = topics.flatMap((t) => t.lessons.flatMap((l) => l.cards)).length;
  return (
    <section className="page course-cards" data-testid="course-cards">
      <TimeZoneCookie used={timeZone} />
      <p>
        <Link to={`/course/${course.id}`}>← Back to {course.mainTopic}</Link>
      </p>
      <h1>
        Flashcards: <span {...text}>{course.mainTopic}</span>
      </h1>
      <p className="row">
        <Link to="/review" className="button primary">
          Review due cards
        </Link>
        <span className="muted">
          {total} cards
          {writing > 0 ? ` · the cards of ${writing} lessons are being written…` : ''}
        </span>
      </p>
      {refused ? (
        <p role="alert" className="error-text">
          {refused.message}
        </p>
      ) : null}
      {topics.map((topic) => (
        <section
          key={topic.id}
          id={`topic-${topic.id}`}
          aria-labelledby={`cards-topic-${topic.id}`}
        >
          <h2 id={`cards-topic-${topic.id}`} {...text}>
            {topic.title}
          </h2>
          {topic.lessons.map((lesson) => (
            <div
              key={lesson.id}
              id={`lesson-cards-${lesson.id}`}
              className="lesson-cards"
              data-testid="lesson-cards"
            >
              <h3 {...text}>{lesson.title}</h3>
              {lesson.writing && lesson.cards.length > 0 ? (
                <p role="status" className="muted" data-testid="deck-rewriting">
                  These cards are being rewritten from the lesson as it is now…
                </p>
              ) : lesson.changed ? (
                <Form method="post" className="deck-changed" data-testid="deck-changed">
                  <input type="hidden" name="lessonId" value={lesson.id} />
                  <span>{DECK_CHANGED_MESSAGE} </span>
                  <button type="submit" name="intent" value="rewrite" className="button">
                    Rewrite cards
                  </button>
                  <span className="muted">
                    {' '}
                    New cards replace these, with their review history.
                  </span>
                </Form>
              ) : null}
              {lesson.cards.length === 0 ? (
                <p className="muted">No cards yet: they are written once the lesson is.</p>
              ) : (
                <ul className="card-list">
                  {lesson.cards.map((card) => (
                    <li
                      key={card.id}
                      className={card.suspended ? 'suspended' : undefined}
                      data-testid="course-card-item"
                      data-card-id={card.id}
                    >
                      <p className="card-question" {...text}>
                        {card.question}
                      </p>
                      <p className="card-answer" {...text}>
                        {card.answer}
                      </p>
                      <div className="muted card-meta">
                        <span data-testid="card-status">{card.status}</span>
                        {card.edited ? ' · edited' : ''} ·{' '}
                        <Link to={`/cards/${card.id}?back=${encodeURIComponent(here)}`}>Edit</Link>{' '}
                        ·{' '}
                        <Form method="post" action={`/cards/${card.id}`} className="inline-form">
                          <input type="hidden" name="back" value={here} />
                          <input
                            type="hidden"
                            name="intent"
                            value={card.suspended ? 'resume' : 'suspend'}
                          />
                          <button type="submit" className="link-button">
                            {card.suspended ? 'Resume' : 'Suspend'}
                          </button>
                        </Form>
                      </div>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          ))}
        </section>
      ))}
    </section>
  );
}

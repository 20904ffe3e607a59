import {
  data,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { Link, useFetcher, useLoaderData, useLocation, useRevalidator } from '@remix-run/react';
import { useEffect } from 'react';
import { FlashcardReview } from '~/components/flashcard-review';
import { TimeZoneCookie } from '~/components/time-zone-cookie';
import { GRADES, intervalLabel } from '~/domain/flashcards';
import { gradeCard, reviewQueue } from '~/services/flashcards.server';
import courseStyles from '~/styles/course.css?url';
import flashcardStyles from '~/styles/flashcards.css?url';
import { requireUser } from '~/utils/auth.server';
import { reviewClock } from '~/utils/review-clock.server';
import { readBody } from '~/utils/validation.server';
import { siteName } from '~/utils/meta';

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: courseStyles },
  { rel: 'stylesheet', href: flashcardStyles },
];
export const meta: MetaFunction = ({ matches }) => [{ title: `Review | ${siteName(matches)}` }];

/**
 * The member's flashcards due today across all their courses, one at a time (ADR 0033), with
 * today's and tomorrow's counts. In demo mode `?now=` sets the scheduler's clock.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const clock = reviewClock(request);
  const view = await reviewQueue(user, clock);
  if (!view.ok) throw new Response(view.message, { status: view.status });
  return {
    ...view.value,
    timeZone: clock.timeZone,
    // The clock a demo page runs on, carried to its grades; null on the real time.
    clock: clock.set ? clock.now.toISOString() : null,
  };
}

/** POST { cardId, rating: 1-4 | again…easy, reps }: grades the card through FSRS. */
export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const body = await readBody(request);
  const graded = await gradeCard(user, Number(body.cardId), body, reviewClock(request, body));
  if (!graded.ok) {
    if (graded.status === 404) throw new Response('Not Found', { status: 404 });
    return data({ success: false as const, message: graded.message }, { status: graded.status });
  }
  return { success: true as const, ...graded.value };
}

/** While decks are being written and nothing is due yet, look again every few seconds. */
function useWaitForDecks(waiting: boolean) {
  const { revalidate, state } = useRevalidator();
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => {
      if (state === 'idle') revalidate();
    }, 2_000);
    return () => clearInterval(timer);
  }, [waiting, revalidate, state]);
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? '' : 's'}`;

export default function Review() {
  const { counts, writing, card, timeZone, clock } = useLoaderData<typeof loader>();
  const grading = useFetcher<typeof action>();
  const location = useLocation();
  useWaitForDecks(writing > 0 && !card);
  const last = grading.state === 'idle' ? grading.data : undefined;
  const lastGrade = last?.success ? GRADES.find((each) => each.rating === last.rating) : undefined;

  return (
    <section className="page review-page" data-testid="review">
      <TimeZoneCookie used={timeZone} />
      <h1>Review</h1>
      <p className="review-counts" data-testid="due-counts">
        <span>
          Due today: <strong data-testid="due-today">{counts.today}</strong>
        </span>{' '}
        ·{' '}
        <span>
          Due tomorrow: <strong data-testid="due-tomorrow">{counts.tomorrow}</strong>
        </span>
      </p>
      {clock ? (
        <p className="muted" data-testid="review-clock">
          Demo clock: reviewing as of {clock}.
        </p>
      ) : null}
      <p role="status" className="muted" data-testid="last-grade">
        {lastGrade && last?.success
          ? `${lastGrade.label}: back in ${intervalLabel(last.scheduledDays)}.`
          : last && !last.success
            ? last.message
            : ''}
      </p>
      {card ? (
        <>
          <FlashcardReview
            key={`${card.id}:${card.reps}`}
            card={card}
            clock={clock}
            back={`${location.pathname}${location.search}`}
            busy={grading.state !== 'idle'}
            onGrade={(fields) => grading.submit(fields, { method: 'post' })}
          />
          <p className="muted review-keys">
            Keys: <kbd>space</kbd> shows the answer, then <kbd>1</kbd> Again · <kbd>2</kbd> Hard ·{' '}
            <kbd>3</kbd> Good · <kbd>4</kbd> Easy.
          </p>
        </>
      ) : (
        <div className="empty center" data-testid="review-done">
          {writing > 0 ? (
            <p>
              The flashcards of {plural(writing, 'lesson')} are being written: this page updates by
              itself.
            </p>
          ) : counts.tomorrow > 0 ? (
            <p>
              Nothing more is due today. {plural(counts.tomorrow, 'card')} will be due tomorrow.
            </p>
          ) : (
            <p>
              Nothing is due today. Every lesson you study adds a small deck of flashcards here.
            </p>
          )}
          <Link to="/home" className="button">
            My courses
          </Link>
        </div>
      )}
    </section>
  );
}

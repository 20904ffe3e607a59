import { Form, Link } from '@remix-run/react';
import { useEffect, useState } from 'react';
import { GRADES, type Rating } from '~/domain/flashcards';
import { languageAttributes } from '~/domain/languages';

export interface ReviewCardView {
  id: number;
  question: string;
  answer: string;
  reps: number;
  isNew: boolean;
  course: { id: string; mainTopic: string; language: string };
  lesson: { id: number; title: string };
  grades: { rating: Rating; label: string; key: string; interval: string }[];
}

/** Keys typed into a field or with a modifier are the field's, not the review's. */
function isReviewKey(event: KeyboardEvent): boolean {
  if (event.altKey || event.ctrlKey || event.metaKey) return false;
  const target = event.target as HTMLElement | null;
  return !target?.closest?.('input, textarea, select, [contenteditable="true"]');
}

/**
 * One card: its question, then (space, or "Show answer") its answer and the four grades with the
 * interval each would give (1 to 4). Without JavaScript the answer opens as a disclosure and the
 * grades are a plain form.
 */
export function FlashcardReview({
  card,
  clock,
  back,
  busy,
  onGrade,
}: {
  card: ReviewCardView;
  /** Demo mode's review clock, carried to the grade (null: the real time). */
  clock: string | null;
  /** This page, for the card's edit and suspend to come back to. */
  back: string;
  busy: boolean;
  onGrade: (form: Record<string, string>) => void;
}) {
  const [shown, setShown] = useState(false);
  const text = languageAttributes(card.course.language);
  const fields = (rating: Rating) => ({
    cardId: String(card.id),
    reps: String(card.reps),
    rating: String(rating),
    ...(clock ? { now: clock } : {}),
  });

  useEffect(() => {
    function onKey(event: KeyboardEvent) {
      if (!isReviewKey(event)) return;
      if (event.key === ' ') {
        // Space never scrolls the page or presses a focused button here: it shows the answer.
        event.preventDefault();
        setShown(true);
        return;
      }
      const grade = GRADES.find((each) => each.key === event.key);
      if (!grade || !shown || busy) return;
      event.preventDefault();
      onGrade(fields(grade.rating));
    }
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  });

  return (
    <article className="flashcard card" data-testid="flashcard" data-card-id={card.id}>
      <p className="muted flashcard-source">
        <Link to={`/course/${card.course.id}?lesson=${card.lesson.id}`} {...text}>
          {card.course.mainTopic} · {card.lesson.title}
        </Link>
        {card.isNew ? <span className="flashcard-new"> · new</span> : null}
      </p>
      <h2 className="flashcard-question" data-testid="flashcard-question" {...text}>
        {card.question}
      </h2>
      <details
        className="flashcard-answer"
        open={shown}
        onToggle={(event) => setShown(event.currentTarget.open)}
      >
        <summary className="button">Show answer (space)</summary>
        <p className="flashcard-answer-text" data-testid="flashcard-answer" {...text}>
          {card.answer}
        </p>
        <Form
          method="post"
          className="flashcard-grades"
          onSubmit={(event) => {
            event.preventDefault();
            const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement;
            if (!busy) onGrade(fields(Number(submitter.value) as Rating));
          }}
        >
          <input type="hidden" name="cardId" value={card.id} />
          <input type="hidden" name="reps" value={card.reps} />
          {clock ? <input type="hidden" name="now" value={clock} /> : null}
          {card.grades.map((grade) => (
            <button
              key={grade.rating}
              type="submit"
              name="rating"
              value={grade.rating}
              className={`button grade-${grade.rating}`}
              disabled={busy}
              aria-keyshortcuts={grade.key}
              data-testid={`grade-${grade.rating}`}
            >
              <span className="grade-label">
                {grade.key} {grade.label}
              </span>
              <span className="grade-interval">{grade.interval}</span>
            </button>
          ))}
        </Form>
      </details>
      <div className="row flashcard-tools">
        <Link to={`/cards/${card.id}?back=${encodeURIComponent(back)}`}>Edit card</Link>
        <Form method="post" action={`/cards/${card.id}`} className="inline-form">
          <input type="hidden" name="intent" value="suspend" />
          <input type="hidden" name="back" value={back} />
          <button type="submit" className="link-button">
            Suspend card
          </button>
        </Form>
      </div>
    </article>
  );
}

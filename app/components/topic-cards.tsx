import { Link } from '@remix-run/react';

export interface TopicCardsData {
  cards: number;
  due: number;
  writing: number;
  /** Decks whose lesson changed after they were written (ADR 0061): offered on the cards page. */
  changed: number;
}

/** A topic's flashcards in the course outline: how many, how many are due today, or being written. */
export function TopicCardsLink({
  courseId,
  topicId,
  counts,
}: {
  courseId: string;
  topicId: number;
  counts: TopicCardsData | undefined;
}) {
  const { cards = 0, due = 0, writing = 0, changed = 0 } = counts ?? {};
  const status =
    cards > 0
      ? `${cards} card${cards === 1 ? '' : 's'}${due > 0 ? ` · ${due} due today` : ''}`
      : writing > 0
        ? 'being written'
        : 'none yet';
  return (
    <p className="quiz-link" data-testid="topic-cards">
      <Link to={`/course/${courseId}/cards#topic-${topicId}`}>Flashcards</Link>{' '}
      <span className="muted" data-testid="topic-cards-status">
        {status}
        {cards > 0 && writing > 0 ? ' · more being written' : ''}
      </span>
      {changed > 0 ? (
        <>
          {' · '}
          <Link to={`/course/${courseId}/cards#topic-${topicId}`} data-testid="topic-cards-changed">
            {changed === 1
              ? 'a lesson changed since its cards were written'
              : `${changed} lessons changed since their cards were written`}
          </Link>
        </>
      ) : null}
    </p>
  );
}

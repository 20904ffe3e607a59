import {
  createEmptyCard,
  fsrs,
  GenSeedStrategyWithCardId,
  generatorParameters,
  StrategyMode,
  type Card,
  type Grade,
} from 'ts-fsrs';
import type { Rating } from '~/domain/flashcards';

/**
 * FSRS through ts-fsrs (ADR 0033). Whole days only (`enable_short_term: false`): the review page
 * is the day's queue, and every grade puts a card off by at least a day (Again: tomorrow). Fuzz
 * spreads cards learnt together over nearby days; seeded by the card and its review count, so
 * the interval a button shows is the interval the grade gives. Every function takes `now`: the
 * scheduler's clock, which tests (and demo mode's `?now=`) move instead of waiting.
 */
const scheduler = fsrs(
  generatorParameters({ enable_short_term: false, enable_fuzz: true }),
).useStrategy(StrategyMode.SEED, GenSeedStrategyWithCardId('cardId'));

/** A card's FSRS state as the `flashcard_schedules` row keeps it. */
export interface Schedule {
  due: Date;
  stability: number;
  difficulty: number;
  elapsedDays: number;
  scheduledDays: number;
  learningSteps: number;
  reps: number;
  lapses: number;
  state: number;
  lastReview: Date | null;
}

/** A card never reviewed: due at once (the page still waits for its lesson to be studied). */
export function newSchedule(now: Date): Schedule {
  return fromFsrs(createEmptyCard(now));
}

function toFsrs(cardId: number, schedule: Schedule): Card & { cardId: number } {
  return {
    cardId,
    due: schedule.due,
    stability: schedule.stability,
    difficulty: schedule.difficulty,
    elapsed_days: schedule.elapsedDays,
    scheduled_days: schedule.scheduledDays,
    learning_steps: schedule.learningSteps,
    reps: schedule.reps,
    lapses: schedule.lapses,
    state: schedule.state,
    last_review: schedule.lastReview ?? undefined,
  };
}

function fromFsrs(card: Card): Schedule {
  return {
    due: card.due,
    stability: card.stability,
    difficulty: card.difficulty,
    elapsedDays: card.elapsed_days,
    scheduledDays: card.scheduled_days,
    learningSteps: card.learning_steps,
    reps: card.reps,
    lapses: card.lapses,
    state: card.state,
    lastReview: card.last_review ?? null,
  };
}

export interface Graded {
  next: Schedule;
  /** The review as the log keeps it: the state before, the days since the last review. */
  log: { state: number; elapsedDays: number; scheduledDays: number };
}

/** The card's next schedule after a grade given at `now`. */
export function grade(cardId: number, schedule: Schedule, rating: Rating, now: Date): Graded {
  const { card, log } = scheduler.next(toFsrs(cardId, schedule), now, rating as Grade);
  return {
    next: fromFsrs(card),
    log: { state: log.state, elapsedDays: log.elapsed_days, scheduledDays: card.scheduled_days },
  };
}

/** How many days each grade would put the card off, if given at `now` (the buttons' labels). */
export function previewDays(cardId: number, schedule: Schedule, now: Date): Record<Rating, number> {
  const preview = scheduler.repeat(toFsrs(cardId, schedule), now);
  return {
    1: preview[1].card.scheduled_days,
    2: preview[2].card.scheduled_days,
    3: preview[3].card.scheduled_days,
    4: preview[4].card.scheduled_days,
  };
}

/**
 * Flashcards (ADR 0033): the limits a card's text keeps to, the four grades and their keys, and
 * the messages pages and API clients read. Browser-safe: the review page and the edit form use
 * the same numbers the server enforces.
 */

/** Cards the AI writes for one lesson: a small deck. */
export const DECK_MIN_CARDS = 3;
export const DECK_MAX_CARDS = 5;

export const MAX_QUESTION_CHARS = 200;
export const MAX_ANSWER_CHARS = 150;
/** An AI answer is short: at most this many words (and one sentence, one line). */
export const MAX_ANSWER_WORDS = 15;

export const GRADES = [
  { rating: 1, name: 'again', label: 'Again', key: '1' },
  { rating: 2, name: 'hard', label: 'Hard', key: '2' },
  { rating: 3, name: 'good', label: 'Good', key: '3' },
  { rating: 4, name: 'easy', label: 'Easy', key: '4' },
] as const;
type Grade = (typeof GRADES)[number];
export type Rating = Grade['rating'];

/** A grade as a form or an API client sends it: 1 to 4, or its name. */
export function readRating(value: unknown): Rating | null {
  const text = String(Array.isArray(value) ? value[0] : (value ?? ''))
    .trim()
    .toLowerCase();
  const grade = GRADES.find((each) => String(each.rating) === text || each.name === text);
  return grade ? grade.rating : null;
}

/** '1 day', '3 days', '2 months': how far a grade would put the card off. */
export function intervalLabel(days: number): string {
  if (days < 1) return 'today';
  if (days < 31) return days === 1 ? '1 day' : `${days} days`;
  if (days < 365) {
    const months = Math.round(days / 30);
    return months === 1 ? '1 month' : `${months} months`;
  }
  const years = Math.round(days / 36.5) / 10;
  return years === 1 ? '1 year' : `${years} years`;
}

export const QUESTION_LENGTH_MESSAGE = `Write a question of 1 to ${MAX_QUESTION_CHARS} characters.`;
export const ANSWER_LENGTH_MESSAGE = `Write an answer of 1 to ${MAX_ANSWER_CHARS} characters.`;
export const RATING_MESSAGE = 'Grade the card Again, Hard, Good or Easy (1 to 4).';
export const REPS_MESSAGE = 'Say which review of the card the grade is for (reps).';
export const ALREADY_GRADED_MESSAGE = 'This card has been graded already.';
export const SUSPENDED_MESSAGE = 'This card is suspended: resume it to review it again.';
export const UNKNOWN_INTENT_MESSAGE = 'Choose to edit, suspend or resume the card.';
export const FLASHCARDS_NOT_IN_PLAN_MESSAGE = 'Flashcards are not part of your plan.';
export const DECK_BEING_WRITTEN_MESSAGE =
  'The cards of this lesson are being written right now: they are ready in a moment.';
export const DECK_CHANGED_MESSAGE = 'This lesson changed since these cards were written.';

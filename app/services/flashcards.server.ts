import { z } from 'zod';
import {
  ALREADY_GRADED_MESSAGE,
  ANSWER_LENGTH_MESSAGE,
  DECK_BEING_WRITTEN_MESSAGE,
  FLASHCARDS_NOT_IN_PLAN_MESSAGE,
  GRADES,
  intervalLabel,
  MAX_ANSWER_CHARS,
  MAX_QUESTION_CHARS,
  QUESTION_LENGTH_MESSAGE,
  RATING_MESSAGE,
  readRating,
  REPS_MESSAGE,
  SUSPENDED_MESSAGE,
  type Rating,
} from '~/domain/flashcards';
import { flashcardsIncluded } from '~/domain/plans';
import { fail, ok, type Result } from '~/domain/result';
import { courseOutline, getCourseForUser } from '~/models/courses.server';
import {
  cardsOfCourse,
  decksOfCourse,
  dueCounts,
  getCardOfMember,
  listUnfinishedDecksOfCourse,
  nextDueCard,
  owedDecksOfMember,
  reopenDeck,
  setCardSuspended,
  storeGrade,
  topicCardCounts,
  updateCardText,
  type DeckOwed,
  type MemberCard,
} from '~/models/flashcards.server';
import type { User } from '~/models/users.server';
import { ensureFlashcardJobs } from '~/queues/flashcards.server';
import { log } from '~/utils/logger.server';
import { noteRedisFailure } from '~/utils/redis.server';
import type { ReviewClock } from '~/utils/review-clock.server';
import { dayBounds } from '~/utils/time-zone';
import { cleanText } from '~/utils/validation.server';
import { grade, previewDays, type Schedule } from './flashcard-scheduling.server';

/**
 * Flashcards as a member uses them (ADR 0033): the day's review queue across all their courses,
 * grading through FSRS, and correcting or suspending a card. Writing decks costs no AI allowance:
 * the cards are part of the course. Another member's card is as absent as one that never existed.
 */

/** Gives every owed deck a job. Never throws: the sweep catches up when Redis is away. */
async function keepDecksWriting(owed: DeckOwed[]) {
  if (owed.length === 0) return;
  try {
    await ensureFlashcardJobs(owed);
  } catch (error) {
    // An outage is logged once by the outage watch, not once per action while it lasts.
    if (!noteRedisFailure('flashcards.enqueue', error))
      log.warn('flashcards.enqueue_failed', { decks: owed.length, error });
  }
}

/** After a course is made or updated with lesson text: its owed decks get jobs. */
export async function keepCourseDecksWriting(courseId: string) {
  return keepDecksWriting(await listUnfinishedDecksOfCourse(courseId));
}

/** The plan rule (app/domain/plans.ts), checked before any card is shown, graded or changed. */
function refusedByPlan(user: Pick<User, 'plan'>) {
  return flashcardsIncluded(user.plan) ? null : fail(FLASHCARDS_NOT_IN_PLAN_MESSAGE, 403);
}

export interface DueCounts {
  today: number;
  tomorrow: number;
}

/** Cards due today and during tomorrow, in the member's days (/home, Review). */
export async function dueCountsOf(
  user: Pick<User, 'id' | 'plan'>,
  clock: ReviewClock,
): Promise<DueCounts> {
  if (!flashcardsIncluded(user.plan)) return { today: 0, tomorrow: 0 };
  return dueCounts(user.id, dayBounds(clock.now, clock.timeZone));
}

interface ReviewCard {
  id: number;
  question: string;
  answer: string;
  /** The review count the grade must match: a second submit of one grade changes nothing. */
  reps: number;
  isNew: boolean;
  course: { id: string; mainTopic: string; language: string };
  lesson: { id: number; title: string };
  /** What each grade would do, for the buttons: '1 day', '3 days'… */
  grades: { rating: Rating; label: string; key: string; interval: string }[];
}

export interface ReviewView {
  counts: DueCounts;
  /** Decks of the member's lessons still being written. */
  writing: number;
  card: ReviewCard | null;
}

const scheduleOf = (row: MemberCard['schedule']): Schedule => ({
  due: row.due,
  stability: row.stability,
  difficulty: row.difficulty,
  elapsedDays: row.elapsedDays,
  scheduledDays: row.scheduledDays,
  learningSteps: row.learningSteps,
  reps: row.reps,
  lapses: row.lapses,
  state: row.state,
  lastReview: row.lastReview,
});

function reviewCard(row: MemberCard, now: Date): ReviewCard {
  const days = previewDays(row.card.id, scheduleOf(row.schedule), now);
  return {
    id: row.card.id,
    question: row.card.question,
    answer: row.card.answer,
    reps: row.schedule.reps,
    isNew: row.schedule.state === 0,
    course: row.course,
    lesson: row.lesson,
    grades: GRADES.map((each) => ({
      rating: each.rating,
      label: each.label,
      key: each.key,
      interval: intervalLabel(days[each.rating]),
    })),
  };
}

/**
 * The Review page: today's count, tomorrow's, and the next card due today. Lessons written
 * before flashcards existed get their decks owed (and written) now, on the member's first visit.
 */
export async function reviewQueue(user: User, clock: ReviewClock): Promise<Result<ReviewView>> {
  const refused = refusedByPlan(user);
  if (refused) return refused;
  const owed = await owedDecksOfMember(user.id);
  await keepDecksWriting(owed);
  const bounds = dayBounds(clock.now, clock.timeZone);
  const next = await nextDueCard(user.id, bounds.tomorrow);
  return ok({
    counts: await dueCounts(user.id, bounds),
    writing: owed.length,
    card: next ? reviewCard(next, clock.now) : null,
  });
}

export interface GradeResult {
  cardId: number;
  rating: Rating;
  due: string;
  scheduledDays: number;
}

/** A grade (1 to 4, or again/hard/good/easy) for a card the member was shown with `reps` reviews. */
export async function gradeCard(
  user: User,
  cardId: number,
  body: Record<string, unknown>,
  clock: ReviewClock,
): Promise<Result<GradeResult>> {
  const refused = refusedByPlan(user);
  if (refused) return refused;
  const row = Number.isSafeInteger(cardId) ? await getCardOfMember(cardId, user.id) : undefined;
  if (!row) return fail('Not Found', 404);
  const rating = readRating(body.rating);
  if (rating === null) return fail(RATING_MESSAGE, 400);
  const reps = /^\d{1,9}$/.test(String(body.reps ?? '').trim()) ? Number(body.reps) : null;
  if (reps === null) return fail(REPS_MESSAGE, 400);
  if (row.schedule.suspended) return fail(SUSPENDED_MESSAGE, 409);
  const graded = grade(row.card.id, scheduleOf(row.schedule), rating, clock.now);
  // Stored only while the row still has the review count the member saw: a second submit of
  // the same grade (a key pressed twice, another tab) is a 409, not a second review.
  const stored = await storeGrade(
    user.id,
    row.card.id,
    reps,
    graded.next,
    { rating, ...graded.log },
    clock.now,
  );
  if (!stored) return fail(ALREADY_GRADED_MESSAGE, 409);
  return ok({
    cardId: row.card.id,
    rating,
    due: graded.next.due.toISOString(),
    scheduledDays: graded.next.scheduledDays,
  });
}

export interface CardView {
  id: number;
  question: string;
  answer: string;
  suspended: boolean;
  edited: boolean;
  course: { id: string; mainTopic: string; language: string };
  lesson: { id: number; title: string };
}

const cardView = (row: MemberCard): CardView => ({
  id: row.card.id,
  question: row.card.question,
  answer: row.card.answer,
  suspended: row.schedule.suspended,
  edited: row.card.editedAt !== null,
  course: row.course,
  lesson: row.lesson,
});

async function ownCard(user: User, cardId: number): Promise<Result<MemberCard>> {
  const refused = refusedByPlan(user);
  if (refused) return refused;
  const row = Number.isSafeInteger(cardId) ? await getCardOfMember(cardId, user.id) : undefined;
  return row ? ok(row) : fail('Not Found', 404);
}

/** One of the member's cards, to correct or suspend. */
export async function cardForMember(user: User, cardId: number): Promise<Result<CardView>> {
  const own = await ownCard(user, cardId);
  return own.ok ? ok(cardView(own.value)) : own;
}

const cardText = (max: number, message: string, label: string) =>
  z
    .string({ error: message })
    .trim()
    .min(1, message)
    .max(max, message)
    .pipe(cleanText({ label, singleLine: true }));

const editSchema = z.object({
  question: cardText(MAX_QUESTION_CHARS, QUESTION_LENGTH_MESSAGE, 'The question'),
  answer: cardText(MAX_ANSWER_CHARS, ANSWER_LENGTH_MESSAGE, 'The answer'),
});

/** The member's correction of a card: its question and answer, each one line. */
export async function editCard(
  user: User,
  cardId: number,
  body: Record<string, unknown>,
): Promise<Result<CardView>> {
  const own = await ownCard(user, cardId);
  if (!own.ok) return own;
  const parsed = editSchema.safeParse(body);
  if (!parsed.success) return fail(parsed.error.issues[0]?.message ?? QUESTION_LENGTH_MESSAGE);
  await updateCardText(own.value.card.id, parsed.data);
  return ok(cardView((await getCardOfMember(own.value.card.id, user.id))!));
}

/** Suspends a card (it leaves every queue and count) or brings it back. */
export async function suspendCard(
  user: User,
  cardId: number,
  suspended: boolean,
): Promise<Result<CardView>> {
  const own = await ownCard(user, cardId);
  if (!own.ok) return own;
  await setCardSuspended(own.value.card.id, user.id, suspended);
  return ok(cardView((await getCardOfMember(own.value.card.id, user.id))!));
}

export interface CourseCardsView {
  course: { id: string; mainTopic: string; language: string };
  writing: number;
  topics: {
    id: number;
    title: string;
    lessons: {
      id: number;
      title: string;
      /** The lesson's text changed after its cards were written: offered for rewriting. */
      changed: boolean;
      /** Its cards are being written (again). */
      writing: boolean;
      cards: {
        id: number;
        question: string;
        answer: string;
        suspended: boolean;
        edited: boolean;
        /** 'new', 'due today', 'due in 3 days', 'not studied yet', 'suspended'. */
        status: string;
      }[];
    }[];
  }[];
}

function cardStatus(
  card: { suspended: boolean; lessonDone: boolean; state: number; due: Date },
  clock: ReviewClock,
  tomorrow: Date,
): string {
  if (card.suspended) return 'suspended';
  if (!card.lessonDone) return 'lesson not studied yet';
  if (card.state === 0) return 'new';
  if (card.due < tomorrow) return 'due today';
  const days = Math.ceil((card.due.getTime() - clock.now.getTime()) / 86_400_000);
  return `due in ${intervalLabel(days)}`;
}

/** Every card of one of the member's courses, by topic and lesson (decks still owed get jobs). */
export async function courseCards(
  user: User,
  courseId: string,
  clock: ReviewClock,
): Promise<Result<CourseCardsView>> {
  const refused = refusedByPlan(user);
  if (refused) return refused;
  const course = await getCourseForUser(courseId, user.id);
  if (!course) return fail('Not Found', 404);
  const owed = await owedDecksOfMember(user.id, course.id);
  await keepDecksWriting(owed);
  const { tomorrow } = dayBounds(clock.now, clock.timeZone);
  const cards = await cardsOfCourse(course.id, user.id);
  const decks = await decksOfCourse(course.id);
  return ok({
    course: { id: course.id, mainTopic: course.mainTopic, language: course.language },
    writing: owed.length,
    topics: (await courseOutline(course.id)).map((topic) => ({
      id: topic.id,
      title: topic.title,
      lessons: topic.lessons.map((lesson) => ({
        id: lesson.id,
        title: lesson.title,
        changed: decks.get(lesson.id)?.lessonChanged ?? false,
        writing: (decks.get(lesson.id)?.state ?? 'done') !== 'done',
        cards: cards
          .filter((card) => card.lessonId === lesson.id)
          .map((card) => ({
            id: card.id,
            question: card.question,
            answer: card.answer,
            suspended: card.suspended,
            edited: card.editedAt !== null,
            status: cardStatus(card, clock, tomorrow),
          })),
      })),
    })),
  });
}

export interface TopicCards {
  cards: number;
  due: number;
  writing: number;
  changed: number;
}

/** The course view's line under each topic: its cards, how many are due today, any being written. */
export async function topicCardsOf(
  user: Pick<User, 'id' | 'plan'>,
  courseId: string,
  clock: ReviewClock,
): Promise<Map<number, TopicCards> | null> {
  if (!flashcardsIncluded(user.plan)) return null;
  return topicCardCounts(courseId, user.id, dayBounds(clock.now, clock.timeZone).tomorrow);
}

/**
 * Rewrites a written lesson's deck from its current text (ADR 0061), through the deck's usual
 * job: offered when the lesson changed after its cards were written, allowed at any time. The
 * cards (their schedules and reviews with them) are replaced when the new ones are stored. 409
 * while the deck is being written.
 */
export async function rewriteDeck(
  user: User,
  courseId: string,
  lessonId: number,
): Promise<Result<DeckOwed>> {
  const refused = refusedByPlan(user);
  if (refused) return refused;
  const course = await getCourseForUser(courseId, user.id);
  const decks = course ? await decksOfCourse(course.id) : undefined;
  if (!decks?.has(lessonId)) return fail('Not Found', 404);
  const reopened = await reopenDeck(lessonId);
  if (!reopened) return fail(DECK_BEING_WRITTEN_MESSAGE, 409);
  await keepDecksWriting([reopened]);
  return ok(reopened);
}

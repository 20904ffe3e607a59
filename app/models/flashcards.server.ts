import { and, asc, count, eq, gte, isNotNull, lt, ne, sql, type SQL } from 'drizzle-orm';
import type { flashcardDecks, flashcardSchedules } from '../../db/schema';
import { database, first, tables, transaction, type Tables } from '~/utils/database.server';

/**
 * Flashcards (ADR 0033): a deck row per written lesson says a deck is owed until its job stores
 * the cards; each card has one schedule row per member (the course's owner), its FSRS state.
 * Every read here that a member causes is scoped by the member's id.
 */
type FlashcardDeck = typeof flashcardDecks.$inferSelect;
export type FlashcardSchedule = typeof flashcardSchedules.$inferSelect;

export interface NewCard {
  question: string;
  answer: string;
}

/** The lesson and course a deck is owed for. */
export interface DeckOwed {
  lessonId: number;
  courseId: string;
}

/**
 * Deck rows for lessons whose text was just stored, in the writer's transaction, so a lesson is
 * never written without its deck being owed. A lesson that has one already keeps it.
 */
export async function insertOwedDecks(owed: DeckOwed[]) {
  if (owed.length === 0) return;
  const { flashcardDecks } = tables;
  await database().insert(flashcardDecks).values(owed).onConflictDoNothing();
}

/**
 * The cards of a deck and their member's schedules (new: the empty card of ts-fsrs, due at
 * once, which is what the columns' defaults are), in the caller's transaction.
 */
async function insertCards(deck: DeckOwed & { userId: string }, cards: NewCard[], now: Date) {
  if (cards.length === 0) return;
  const { flashcardSchedules, flashcards } = tables;
  const rows = await database()
    .insert(flashcards)
    .values(
      cards.map((card, position) => ({
        lessonId: deck.lessonId,
        courseId: deck.courseId,
        position,
        question: card.question,
        answer: card.answer,
      })),
    )
    .returning({ id: flashcards.id });
  await database()
    .insert(flashcardSchedules)
    .values(rows.map((row) => ({ userId: deck.userId, cardId: row.id, due: now })));
}

/** Decks that already exist (a copied course): written at once, no job owed. */
export async function insertWrittenDecks(
  courseId: string,
  userId: string,
  decks: { lessonId: number; cards: NewCard[] }[],
) {
  if (decks.length === 0) return;
  const { flashcardDecks } = tables;
  const now = new Date();
  await database()
    .insert(flashcardDecks)
    .values(
      decks.map((deck) => ({
        lessonId: deck.lessonId,
        courseId,
        state: 'done' as const,
        generatedAt: now,
      })),
    );
  // One deck after the other, in the caller's transaction.
  for (const deck of decks) await insertCards({ ...deck, courseId, userId }, deck.cards, now);
}

export interface DeckJobContext {
  deck: FlashcardDeck;
  lesson: { title: string; theory: string | null };
  course: { id: string; mainTopic: string; language: string; userId: string };
}

/** What a deck's job needs, or undefined when the lesson (or its course) was deleted. */
export async function getDeckJobContext(lessonId: number): Promise<DeckJobContext | undefined> {
  const { courses, flashcardDecks, lessons } = tables;
  return first(
    database()
      .select({
        deck: flashcardDecks,
        lesson: { title: lessons.title, theory: lessons.theory },
        course: {
          id: courses.id,
          mainTopic: courses.mainTopic,
          language: courses.language,
          userId: courses.userId,
        },
      })
      .from(flashcardDecks)
      .innerJoin(lessons, eq(lessons.id, flashcardDecks.lessonId))
      .innerJoin(courses, eq(courses.id, flashcardDecks.courseId))
      .where(eq(flashcardDecks.lessonId, lessonId)),
  );
}

const unfinished = (lessonId: number) => {
  const { flashcardDecks } = tables;
  return and(eq(flashcardDecks.lessonId, lessonId), ne(flashcardDecks.state, 'done'));
};

/** A try starts. Never undoes 'done'. */
export async function markDeckRunning(lessonId: number, failuresSoFar: number) {
  const { flashcardDecks } = tables;
  await database()
    .update(flashcardDecks)
    .set({ state: failuresSoFar > 0 ? 'retrying' : 'running' })
    .where(unfinished(lessonId));
}

/** A try put off by the AI rate limit (ADR 0024): waiting again, as before it started. */
export async function markDeckWaiting(lessonId: number, failuresSoFar: number) {
  const { flashcardDecks } = tables;
  await database()
    .update(flashcardDecks)
    .set({ state: failuresSoFar > 0 ? 'retrying' : 'queued' })
    .where(unfinished(lessonId));
}

export async function recordDeckFailure(lessonId: number, failures: number, message: string) {
  const { flashcardDecks } = tables;
  await database()
    .update(flashcardDecks)
    .set({ state: 'retrying', attempts: failures, lastError: message.slice(0, 500) })
    .where(unfinished(lessonId));
}

/**
 * Stores a deck once, with its member's schedules: a job run twice (or a copy racing a job)
 * cannot write a second set of cards. A rewritten deck (ADR 0061) replaces the lesson's cards,
 * their schedules and reviews with them. `writtenFrom` is the lesson text the cards were written
 * from: if the lesson changed while they were being written, the deck stays marked as changed.
 * Returns whether it stored.
 */
export async function storeDeck(
  deck: DeckOwed & { userId: string },
  cards: NewCard[],
  writtenFrom: string,
  now = new Date(),
): Promise<boolean> {
  return transaction(async (tx) => {
    const { flashcardDecks, flashcards, lessons } = tables;
    const lesson = await first(
      tx.select({ theory: lessons.theory }).from(lessons).where(eq(lessons.id, deck.lessonId)),
    );
    const claimed = await tx
      .update(flashcardDecks)
      .set({
        state: 'done',
        lastError: null,
        generatedAt: now,
        lessonChanged: lesson?.theory !== writtenFrom,
      })
      .where(unfinished(deck.lessonId))
      .returning({ lessonId: flashcardDecks.lessonId });
    if (claimed.length !== 1) return false;
    await tx.delete(flashcards).where(eq(flashcards.lessonId, deck.lessonId));
    await insertCards(deck, cards, now);
    return true;
  });
}

/**
 * The lesson's text was replaced (in the writer's transaction): its deck, if any, is marked as
 * written from an older text, to be offered for rewriting.
 */
export async function markDeckLessonChanged(lessonId: number) {
  const { flashcardDecks } = tables;
  await database()
    .update(flashcardDecks)
    .set({ lessonChanged: true })
    .where(eq(flashcardDecks.lessonId, lessonId));
}

/**
 * The member asked for a written deck to be rewritten (ADR 0061): owed again, so its job (the
 * usual one) writes it; its cards stay until the new ones replace them. Returns whether it did
 * (false for a deck not written, or being written).
 */
export async function reopenDeck(lessonId: number): Promise<DeckOwed | undefined> {
  const { flashcardDecks } = tables;
  return first(
    database()
      .update(flashcardDecks)
      .set({ state: 'queued', attempts: 0, lastError: null })
      .where(and(eq(flashcardDecks.lessonId, lessonId), eq(flashcardDecks.state, 'done')))
      .returning({ lessonId: flashcardDecks.lessonId, courseId: flashcardDecks.courseId }),
  );
}

/** Decks still owed: the work the sweeper keeps a job for. */
export async function listUnfinishedDecks(): Promise<DeckOwed[]> {
  const { flashcardDecks } = tables;
  return database()
    .select({ lessonId: flashcardDecks.lessonId, courseId: flashcardDecks.courseId })
    .from(flashcardDecks)
    .where(ne(flashcardDecks.state, 'done'));
}

/** The owed decks of one course (to give them jobs when the course is made or updated). */
export async function listUnfinishedDecksOfCourse(courseId: string): Promise<DeckOwed[]> {
  const { flashcardDecks } = tables;
  return database()
    .select({ lessonId: flashcardDecks.lessonId, courseId: flashcardDecks.courseId })
    .from(flashcardDecks)
    .where(and(eq(flashcardDecks.courseId, courseId), ne(flashcardDecks.state, 'done')));
}

/**
 * Decks owed for the member's written lessons that have none: lessons written before flashcards
 * existed. Called when the member first opens Review (or a course's cards), so old courses get
 * their cards then and not all at once at the upgrade. Returns every deck of theirs still owed.
 * Only reads unless some deck is missing, so loading the page takes no write lock.
 */
export async function owedDecksOfMember(userId: string, courseId?: string): Promise<DeckOwed[]> {
  const { courses, flashcardDecks, lessons } = tables;
  const ofMember = and(
    eq(courses.userId, userId),
    courseId === undefined ? undefined : eq(courses.id, courseId),
  );
  const missing = await database()
    .select({ lessonId: lessons.id, courseId: lessons.courseId })
    .from(lessons)
    .innerJoin(courses, eq(courses.id, lessons.courseId))
    .leftJoin(flashcardDecks, eq(flashcardDecks.lessonId, lessons.id))
    .where(and(ofMember, isNotNull(lessons.theory), sql`${flashcardDecks.lessonId} is null`));
  // Another request may insert the same rows meanwhile: insertOwedDecks ignores those.
  if (missing.length > 0) await transaction(() => insertOwedDecks(missing));
  return database()
    .select({ lessonId: flashcardDecks.lessonId, courseId: flashcardDecks.courseId })
    .from(flashcardDecks)
    .innerJoin(courses, eq(courses.id, flashcardDecks.courseId))
    .where(and(ofMember, ne(flashcardDecks.state, 'done')));
}

/** A card of one of the member's courses, with the member's schedule; undefined for any other. */
export async function getCardOfMember(cardId: number, userId: string) {
  const { courses, flashcardSchedules, flashcards, lessons } = tables;
  return first(
    database()
      .select({
        card: flashcards,
        schedule: flashcardSchedules,
        lesson: { id: lessons.id, title: lessons.title },
        course: { id: courses.id, mainTopic: courses.mainTopic, language: courses.language },
      })
      .from(flashcards)
      .innerJoin(courses, and(eq(courses.id, flashcards.courseId), eq(courses.userId, userId)))
      .innerJoin(lessons, eq(lessons.id, flashcards.lessonId))
      .innerJoin(
        flashcardSchedules,
        and(eq(flashcardSchedules.cardId, flashcards.id), eq(flashcardSchedules.userId, userId)),
      )
      .where(eq(flashcards.id, cardId)),
  );
}
export type MemberCard = NonNullable<Awaited<ReturnType<typeof getCardOfMember>>>;

/** The member's correction of a card's text (the caller checked it is theirs). */
export async function updateCardText(cardId: number, text: NewCard, now = new Date()) {
  const { flashcards } = tables;
  await database()
    .update(flashcards)
    .set({ question: text.question, answer: text.answer, editedAt: now })
    .where(eq(flashcards.id, cardId));
}

export async function setCardSuspended(cardId: number, userId: string, suspended: boolean) {
  const { flashcardSchedules } = tables;
  await database()
    .update(flashcardSchedules)
    .set({ suspended })
    .where(and(eq(flashcardSchedules.cardId, cardId), eq(flashcardSchedules.userId, userId)));
}

/** A card counts for review once its lesson is studied (done) and while it is not suspended. */
const reviewable = (userId: string) => {
  const { flashcardSchedules, lessons } = tables;
  return and(
    eq(flashcardSchedules.userId, userId),
    eq(flashcardSchedules.suspended, false),
    eq(lessons.done, true),
  );
};

/** Rows that meet `condition`, as a number on both databases (PostgreSQL counts in bigint). */
const countWhere = (condition: SQL | undefined) =>
  sql<number>`count(*) filter (where ${condition})`.mapWith(Number);

/** How many of the member's cards fall due before `tomorrow`, and during the day after. */
export async function dueCounts(
  userId: string,
  bounds: { tomorrow: Date; dayAfter: Date },
): Promise<{ today: number; tomorrow: number }> {
  const { flashcardSchedules, flashcards, lessons } = tables;
  // The bounds are compared through the column, which maps the Date for each database.
  const row = await first(
    database()
      .select({
        today: countWhere(lt(flashcardSchedules.due, bounds.tomorrow)),
        tomorrow: countWhere(gte(flashcardSchedules.due, bounds.tomorrow)),
      })
      .from(flashcardSchedules)
      .innerJoin(flashcards, eq(flashcards.id, flashcardSchedules.cardId))
      .innerJoin(lessons, eq(lessons.id, flashcards.lessonId))
      .where(and(reviewable(userId), lt(flashcardSchedules.due, bounds.dayAfter))),
  );
  return { today: row?.today ?? 0, tomorrow: row?.tomorrow ?? 0 };
}

const dueCardColumns = ({ courses, flashcardSchedules, flashcards, lessons }: Tables) => ({
  card: flashcards,
  schedule: flashcardSchedules,
  lesson: { id: lessons.id, title: lessons.title },
  course: { id: courses.id, mainTopic: courses.mainTopic, language: courses.language },
});

/** The first reviewable card due before `before`, reviewed cards (or new ones) only. */
async function firstDue(userId: string, before: Date, reviewed: boolean) {
  const { courses, flashcardSchedules, flashcards, lessons } = tables;
  return first(
    database()
      .select(dueCardColumns(tables))
      .from(flashcardSchedules)
      .innerJoin(flashcards, eq(flashcards.id, flashcardSchedules.cardId))
      .innerJoin(lessons, eq(lessons.id, flashcards.lessonId))
      .innerJoin(courses, eq(courses.id, flashcards.courseId))
      .where(
        and(
          reviewable(userId),
          lt(flashcardSchedules.due, before),
          reviewed ? ne(flashcardSchedules.state, 0) : eq(flashcardSchedules.state, 0),
        ),
      )
      // The index's order: the walk stops at the first card that qualifies, however many wait.
      .orderBy(asc(flashcardSchedules.due), asc(flashcardSchedules.cardId))
      .limit(1),
  );
}

/**
 * The card to review next among those due before `before`: cards already reviewed first, the
 * most overdue first; then new cards, oldest deck first and in its order.
 */
export async function nextDueCard(userId: string, before: Date) {
  return (await firstDue(userId, before, true)) ?? (await firstDue(userId, before, false));
}

/**
 * Stores a grade: the schedule the scheduler worked out from the row with `reps` reviews, and the
 * review in the log, only if the row still has `reps` reviews and is not suspended (a second
 * submit of the same grade, or a grade racing a suspend, changes nothing). Returns whether it did.
 */
export async function storeGrade(
  userId: string,
  cardId: number,
  reps: number,
  next: Omit<FlashcardSchedule, 'userId' | 'cardId' | 'suspended'>,
  review: { rating: number; state: number; elapsedDays: number; scheduledDays: number },
  now: Date,
): Promise<boolean> {
  return transaction(async (tx) => {
    const { flashcardReviews, flashcardSchedules } = tables;
    const updated = await tx
      .update(flashcardSchedules)
      .set(next)
      .where(
        and(
          eq(flashcardSchedules.userId, userId),
          eq(flashcardSchedules.cardId, cardId),
          eq(flashcardSchedules.reps, reps),
          eq(flashcardSchedules.suspended, false),
        ),
      )
      .returning({ cardId: flashcardSchedules.cardId });
    if (updated.length !== 1) return false;
    await tx.insert(flashcardReviews).values({ userId, cardId, ...review, reviewedAt: now });
    return true;
  });
}

/** Every card of a course with its topic, lesson and the member's schedule, in course order. */
export async function cardsOfCourse(courseId: string, userId: string) {
  const { flashcardSchedules, flashcards, lessons } = tables;
  return database()
    .select({
      id: flashcards.id,
      question: flashcards.question,
      answer: flashcards.answer,
      editedAt: flashcards.editedAt,
      lessonId: lessons.id,
      lessonTitle: lessons.title,
      lessonDone: lessons.done,
      topicId: lessons.topicId,
      due: flashcardSchedules.due,
      state: flashcardSchedules.state,
      suspended: flashcardSchedules.suspended,
    })
    .from(flashcards)
    .innerJoin(lessons, eq(lessons.id, flashcards.lessonId))
    .innerJoin(
      flashcardSchedules,
      and(eq(flashcardSchedules.cardId, flashcards.id), eq(flashcardSchedules.userId, userId)),
    )
    .where(eq(flashcards.courseId, courseId))
    .orderBy(asc(lessons.ordinal), asc(flashcards.position));
}

/**
 * Per topic of a course: its cards, how many are due before `tomorrow`, decks being written and
 * decks whose lesson changed since.
 */
export async function topicCardCounts(courseId: string, userId: string, tomorrow: Date) {
  const { flashcardDecks, flashcardSchedules, flashcards, lessons } = tables;
  const dueToday = and(
    eq(flashcardSchedules.suspended, false),
    eq(lessons.done, true),
    lt(flashcardSchedules.due, tomorrow),
  );
  const cards = await database()
    .select({
      topicId: lessons.topicId,
      cards: count(),
      due: countWhere(dueToday),
    })
    .from(flashcards)
    .innerJoin(lessons, eq(lessons.id, flashcards.lessonId))
    .innerJoin(
      flashcardSchedules,
      and(eq(flashcardSchedules.cardId, flashcards.id), eq(flashcardSchedules.userId, userId)),
    )
    .where(eq(flashcards.courseId, courseId))
    .groupBy(lessons.topicId);
  const decks = await database()
    .select({
      topicId: lessons.topicId,
      writing: countWhere(ne(flashcardDecks.state, 'done')),
      changed: countWhere(
        and(eq(flashcardDecks.state, 'done'), eq(flashcardDecks.lessonChanged, true)),
      ),
    })
    .from(flashcardDecks)
    .innerJoin(lessons, eq(lessons.id, flashcardDecks.lessonId))
    .where(eq(flashcardDecks.courseId, courseId))
    .groupBy(lessons.topicId);
  const counts = new Map<
    number,
    { cards: number; due: number; writing: number; changed: number }
  >();
  for (const row of cards)
    counts.set(row.topicId, { cards: row.cards, due: row.due, writing: 0, changed: 0 });
  for (const row of decks) {
    const entry = counts.get(row.topicId) ?? { cards: 0, due: 0, writing: 0, changed: 0 };
    entry.writing = row.writing;
    entry.changed = row.changed;
    counts.set(row.topicId, entry);
  }
  return counts;
}

/** The written decks of a course, by lesson (to copy them with the course). */
export async function writtenDecksOfCourse(courseId: string): Promise<Map<number, NewCard[]>> {
  const { flashcardDecks, flashcards } = tables;
  const rows = await database()
    .select({
      lessonId: flashcards.lessonId,
      question: flashcards.question,
      answer: flashcards.answer,
    })
    .from(flashcards)
    .innerJoin(flashcardDecks, eq(flashcardDecks.lessonId, flashcards.lessonId))
    .where(and(eq(flashcards.courseId, courseId), eq(flashcardDecks.state, 'done')))
    .orderBy(asc(flashcards.lessonId), asc(flashcards.position));
  const decks = new Map<number, NewCard[]>();
  for (const row of rows)
    decks.set(row.lessonId, [
      ...(decks.get(row.lessonId) ?? []),
      { question: row.question, answer: row.answer },
    ]);
  return decks;
}

/** Each written lesson's deck in a course: whether it is written, and whether its lesson changed since. */
export async function decksOfCourse(
  courseId: string,
): Promise<Map<number, { state: FlashcardDeck['state']; lessonChanged: boolean }>> {
  const { flashcardDecks } = tables;
  const rows = await database()
    .select({
      lessonId: flashcardDecks.lessonId,
      state: flashcardDecks.state,
      lessonChanged: flashcardDecks.lessonChanged,
    })
    .from(flashcardDecks)
    .where(eq(flashcardDecks.courseId, courseId));
  return new Map(rows.map(({ lessonId, ...deck }) => [lessonId, deck]));
}

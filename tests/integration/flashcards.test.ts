import { and, eq, getTableColumns } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { flashcards } from '../../db/schema';
import {
  ALREADY_GRADED_MESSAGE,
  ANSWER_LENGTH_MESSAGE,
  QUESTION_LENGTH_MESSAGE,
  RATING_MESSAGE,
  SUSPENDED_MESSAGE,
} from '~/domain/flashcards';
import { startApp, type RunningApp } from '../support/app-process';
import { insertCourse } from '../support/courses';
import {
  appDatabase,
  closeAppDatabases,
  createMember,
  sessionCookieValue,
} from '../support/members';
import { tables } from '~/utils/database.server';

/**
 * Flashcards over real HTTP, through the production server with its own worker in demo mode
 * (ADR 0033). The AI mock answers the first two deck requests of each lesson with an unusable
 * deck, so every deck arrives through the job's retries. The allowance is one AI call an hour:
 * writing decks must not touch it. The sweep runs every second.
 */
let app: RunningApp;

beforeAll(async () => {
  app = await startApp({
    MOCK_AI_MALFORMED: '2',
    JOB_BACKOFF_BASE_MS: '100',
    SWEEP_INTERVAL_MS: '1000',
    AI_REQUESTS_PER_HOUR: '1',
  });
}, 180_000);

afterAll(async () => {
  await closeAppDatabases();
  await app?.stop();
});

// The running app's own database (tests/support/members.ts), queried through `tables`.
const appDb = () => appDatabase(app);

async function member() {
  const created = await createMember(app);
  return { ...created, cookie: `__session=${await sessionCookieValue(app, created)}` };
}

function get(path: string, cookie: string) {
  return fetch(`${app.baseURL}${path}`, { redirect: 'manual', headers: { Cookie: cookie } });
}

function post(path: string, cookie: string, fields: Record<string, string>) {
  return fetch(`${app.baseURL}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });
}

/** A course of two written lessons (one topic) through the API: no lesson for the AI to write. */
async function createCourse(cookie: string, subtopics = ['Planets', 'Moons']) {
  const response = await fetch(`${app.baseURL}/api/course`, {
    method: 'POST',
    headers: { Cookie: cookie, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      mainTopic: 'Astronomy',
      type: 'text',
      content: {
        astronomy: [
          {
            title: 'The Solar System',
            subtopics: subtopics.map((title) => ({ title, theory: `<p>About ${title}.</p>` })),
          },
        ],
      },
    }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { courseId: string }).courseId;
}

const decksOf = async (courseId: string) =>
  await appDb()
    .select()
    .from(tables.flashcardDecks)
    .where(eq(tables.flashcardDecks.courseId, courseId));
/** A course's cards in the order it teaches them (decks are written in parallel, in any order). */
const cardsOf = async (courseId: string) =>
  await appDb()
    .select(getTableColumns(tables.flashcards))
    .from(tables.flashcards)
    .innerJoin(tables.lessons, eq(tables.lessons.id, tables.flashcards.lessonId))
    .where(eq(tables.flashcards.courseId, courseId))
    .orderBy(tables.lessons.ordinal, tables.flashcards.position);
const scheduleOf = async (cardId: number) =>
  (
    await appDb()
      .select()
      .from(tables.flashcardSchedules)
      .where(eq(tables.flashcardSchedules.cardId, cardId))
  )[0]!;
const cardById = async (cardId: number) =>
  (await appDb().select().from(tables.flashcards).where(eq(tables.flashcards.id, cardId)))[0];

async function waitFor<T>(
  probe: () => Promise<T | undefined | false>,
  timeoutMs = 45_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out:\n${app.output().slice(-3000)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const decksWritten = (courseId: string, count: number) => async () => {
  const decks = await decksOf(courseId);
  return decks.length === count && decks.every((deck) => deck.state === 'done') && decks;
};

/** The page's text with React's comment markers taken out. */
const text = async (response: Response) => (await response.text()).replace(/<!-- -->/g, '');
const dueToday = (html: string) => Number(/data-testid="due-today">(\d+)</.exec(html)?.[1]);
const dueTomorrow = (html: string) => Number(/data-testid="due-tomorrow">(\d+)</.exec(html)?.[1]);

let owner: Awaited<ReturnType<typeof member>>;
let courseId: string;

describe('flashcards', () => {
  beforeAll(async () => {
    owner = await member();
    courseId = await createCourse(owner.cookie);
  });

  it("writes each written lesson's deck through its job, retrying unusable decks, without the AI allowance", async () => {
    const decks = await waitFor(decksWritten(courseId, 2));
    for (const deck of decks) {
      // Two unusable decks, each a failed try the row counted, then a valid one.
      expect(deck.attempts).toBe(2);
      expect(deck.lastError).toBeNull();
    }
    expect(app.output()).toContain('flashcards.try_failed');
    const cards = await cardsOf(courseId);
    expect(cards).toHaveLength(6);
    for (const card of cards) {
      expect(card.question).toMatch(/\?$/);
      expect(card.answer.split(' ').length).toBeLessThanOrEqual(15);
      // Each card has its member's schedule, new and due at once.
      expect(await scheduleOf(card.id)).toMatchObject({ userId: owner.id, state: 0, reps: 0 });
    }
    // The hour's one AI call is still there to spend: the decks did not use it.
    const oneLesson = await fetch(`${app.baseURL}/api/course`, {
      method: 'POST',
      headers: { Cookie: owner.cookie, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        mainTopic: 'Geology',
        type: 'text',
        content: { geology: [{ title: 'Rocks', subtopics: [{ title: 'Granite' }] }] },
      }),
    });
    expect(oneLesson.status).toBe(200);
  });

  it('are on every plan, as /pricing says', async () => {
    const pricing = await text(await fetch(`${app.baseURL}/pricing`));
    expect(pricing).toContain('Flashcards come with the Free Plan, Monthly Plan and Yearly Plan');
    for (const plan of ['free', 'monthly', 'yearly'] as const) {
      const someone = await createMember(app, { plan });
      const cookie = `__session=${await sessionCookieValue(app, someone)}`;
      expect((await get('/review', cookie)).status).toBe(200);
    }
  });

  it('shows cards of studied lessons only, counts them on /home and the course view', async () => {
    const before = await text(await get('/review', owner.cookie));
    expect(dueToday(before)).toBe(0);
    const [first] = await appDb()
      .select({ id: tables.lessons.id })
      .from(tables.lessons)
      .where(eq(tables.lessons.courseId, courseId))
      .orderBy(tables.lessons.ordinal);
    const opened = await post(`/course/${courseId}`, owner.cookie, {
      intent: 'open',
      lessonId: String(first!.id),
    });
    expect(opened.status).toBe(302);
    const review = await text(await get('/review', owner.cookie));
    expect(dueToday(review)).toBe(3);
    expect(review).toContain((await cardsOf(courseId))[0]!.question.replace(/"/g, '&quot;'));
    expect(await text(await get('/home', owner.cookie))).toMatch(
      /Flashcards due today: <strong data-testid="cards-due-count">3</,
    );
    expect(await text(await get(`/course/${courseId}`, owner.cookie))).toContain(
      '6 cards · 3 due today',
    );
  });

  it('grades through FSRS on the clock it is given, logging each review', async () => {
    const card = (await cardsOf(courseId))[0]!;
    const graded = await post('/review', owner.cookie, {
      cardId: String(card.id),
      rating: 'again',
      reps: '0',
    });
    expect(graded.status).toBe(200);
    const schedule = await scheduleOf(card.id);
    expect(schedule).toMatchObject({ reps: 1, state: 2, scheduledDays: 1 });
    const page = await text(await get('/review', owner.cookie));
    expect([dueToday(page), dueTomorrow(page)]).toEqual([2, 1]);
    // The next day, on the scheduler's own clock (demo mode's ?now=): the card is due again.
    const tomorrow = new Date(schedule.due.getTime() + 60_000).toISOString();
    const later = await text(await get(`/review?now=${tomorrow}`, owner.cookie));
    expect([dueToday(later), dueTomorrow(later)]).toEqual([3, 0]);
    const again = await post('/review', owner.cookie, {
      cardId: String(card.id),
      rating: '3',
      reps: '1',
      now: tomorrow,
    });
    expect(again.status).toBe(200);
    expect((await scheduleOf(card.id)).lastReview?.toISOString()).toBe(tomorrow);
    const log = await appDb()
      .select()
      .from(tables.flashcardReviews)
      .where(eq(tables.flashcardReviews.cardId, card.id))
      .orderBy(tables.flashcardReviews.id);
    expect(log.map((review) => [review.rating, review.state, review.elapsedDays])).toEqual([
      [1, 0, 0],
      [3, 2, 1],
    ]);
  });

  it('answers bad grades and edits with 400 or 409 and a message, changing nothing', async () => {
    const [card, other] = (await cardsOf(courseId)).slice(1, 3);
    const grade = (fields: Record<string, string>) =>
      post('/review', owner.cookie, { cardId: String(card!.id), ...fields });
    const badRating = await grade({ rating: '5', reps: '0' });
    expect(badRating.status).toBe(400);
    expect(await text(badRating)).toContain(RATING_MESSAGE);
    for (const reps of [undefined, '', '-1', 'x'])
      expect(
        (await grade({ rating: 'good', ...(reps === undefined ? {} : { reps }) })).status,
      ).toBe(400);
    const stale = await grade({ rating: 'good', reps: '3' });
    expect(stale.status).toBe(409);
    expect(await text(stale)).toContain(ALREADY_GRADED_MESSAGE);
    expect((await scheduleOf(card!.id)).reps).toBe(0);

    const edit = (fields: Record<string, string>) =>
      post(`/cards/${card!.id}`, owner.cookie, { intent: 'edit', ...fields });
    const cases: [Record<string, string>, string][] = [
      [{ question: ' ', answer: 'Eight' }, QUESTION_LENGTH_MESSAGE],
      [{ question: 'How many planets?', answer: 'x'.repeat(151) }, ANSWER_LENGTH_MESSAGE],
      [{ question: 'How many\nplanets?', answer: 'Eight' }, 'The question contains characters'],
      [{ question: 'How many planets?' }, ANSWER_LENGTH_MESSAGE],
    ];
    for (const [fields, message] of cases) {
      const refused = await edit(fields);
      expect(refused.status, JSON.stringify(fields)).toBe(400);
      expect(await text(refused)).toContain(message);
    }
    const unknown = await post(`/cards/${card!.id}`, owner.cookie, { intent: 'delete' });
    expect(unknown.status).toBe(400);
    expect(await cardById(card!.id)).toEqual(card);

    // A suspended card cannot be graded until it is resumed.
    const suspended = await post(`/cards/${other!.id}`, owner.cookie, {
      intent: 'suspend',
      back: '/review',
    });
    expect(suspended.status).toBe(303);
    expect(suspended.headers.get('location')).toBe('/review');
    const onSuspended = await post('/review', owner.cookie, {
      cardId: String(other!.id),
      rating: '3',
      reps: '0',
    });
    expect(onSuspended.status).toBe(409);
    expect(await text(onSuspended)).toContain(SUSPENDED_MESSAGE);
    await post(`/cards/${other!.id}`, owner.cookie, { intent: 'resume' });
    expect(await scheduleOf(other!.id)).toMatchObject({ suspended: false, reps: 0 });
  });

  it("answers 404 for another member's cards, their grades, edits and course cards", async () => {
    const stranger = await member();
    const card = (await cardsOf(courseId))[1]!;
    const before = await scheduleOf(card.id);
    expect((await get(`/cards/${card.id}`, stranger.cookie)).status).toBe(404);
    expect((await get('/cards/not-a-card', stranger.cookie)).status).toBe(404);
    const edited = await post(`/cards/${card.id}`, stranger.cookie, {
      intent: 'edit',
      question: 'Hijacked?',
      answer: 'Yes',
    });
    expect(edited.status).toBe(404);
    const suspended = await post(`/cards/${card.id}`, stranger.cookie, { intent: 'suspend' });
    expect(suspended.status).toBe(404);
    const graded = await post('/review', stranger.cookie, {
      cardId: String(card.id),
      rating: '4',
      reps: '0',
    });
    expect(graded.status).toBe(404);
    expect((await get(`/course/${courseId}/cards`, stranger.cookie)).status).toBe(404);
    // Nothing of theirs changed, and the stranger's own Review shows none of it.
    expect(await cardById(card.id)).toEqual(card);
    expect(await scheduleOf(card.id)).toEqual(before);
    const theirs = await text(await get('/review', stranger.cookie));
    expect(dueToday(theirs)).toBe(0);
    expect(theirs).not.toContain(card.question.replace(/"/g, '&quot;'));
  });

  it('corrects a card: the new text is what Review and the course cards show', async () => {
    const card = (await cardsOf(courseId))[2]!;
    const saved = await post(`/cards/${card.id}`, owner.cookie, {
      intent: 'edit',
      question: 'How many planets orbit the Sun?',
      answer: 'Eight',
      back: `/course/${courseId}/cards`,
    });
    expect(saved.status).toBe(303);
    const row = (await cardById(card.id))!;
    expect([row.question, row.answer]).toEqual(['How many planets orbit the Sun?', 'Eight']);
    expect(row.editedAt).not.toBeNull();
    const list = await text(await get(`/course/${courseId}/cards`, owner.cookie));
    expect(list).toContain('How many planets orbit the Sun?');
    expect(list).toContain('edited');
  });

  it("copies a shared course's cards as written, with the copier's own schedule", async () => {
    const shared = await post(`/course/${courseId}/share`, owner.cookie, { intent: 'share' });
    const { url } = (await shared.json()) as { url: string };
    const reader = await member();
    const copied = await fetch(url, {
      method: 'POST',
      redirect: 'manual',
      headers: { Cookie: reader.cookie, Accept: 'text/html' },
    });
    expect(copied.status).toBe(303);
    const copyId = copied.headers.get('location')!.split('/').pop()!;
    // Written at once, edits included: no deck job, no AI call.
    expect((await decksOf(copyId)).map((deck) => [deck.state, deck.attempts])).toEqual([
      ['done', 0],
      ['done', 0],
    ]);
    const text = (cards: (typeof flashcards.$inferSelect)[]) =>
      cards.map((card) => [card.question, card.answer]);
    expect(text(await cardsOf(copyId))).toEqual(text(await cardsOf(courseId)));
    for (const card of await cardsOf(copyId))
      expect(await scheduleOf(card.id)).toMatchObject({ userId: reader.id, reps: 0, state: 0 });
  });

  it('gives a deck whose job Redis lost a new job in the sweep, with no page loaded', async () => {
    // A course written straight into the database (as before flashcards existed), and one of its
    // lessons owing a deck that no job is writing.
    const legacy = await insertCourse(app, owner.id, {
      mainTopic: 'Botany',
      lessons: 2,
      allDone: true,
    });
    const [lost, untouched] = await appDb()
      .select({ id: tables.lessons.id })
      .from(tables.lessons)
      .where(eq(tables.lessons.courseId, legacy))
      .orderBy(tables.lessons.ordinal);
    await appDb().insert(tables.flashcardDecks).values({ lessonId: lost!.id, courseId: legacy });
    const [deck] = await waitFor(decksWritten(legacy, 1));
    expect(deck!.lessonId).toBe(lost!.id);
    expect(
      await appDb()
        .select()
        .from(tables.flashcards)
        .where(eq(tables.flashcards.lessonId, lost!.id)),
    ).toHaveLength(3);
    // The sweep writes what is owed, not every old lesson: the other waits for its member.
    expect(
      await appDb()
        .select()
        .from(tables.flashcardDecks)
        .where(and(eq(tables.flashcardDecks.lessonId, untouched!.id))),
    ).toEqual([]);
  });

  it('writes the decks of a course from before flashcards when its member first reviews', async () => {
    const learner = await member();
    const legacy = await insertCourse(app, learner.id, {
      mainTopic: 'Geometry',
      lessons: 3,
      allDone: true,
    });
    await new Promise((resolve) => setTimeout(resolve, 1_500)); // a sweep or two: nothing
    expect(await decksOf(legacy)).toEqual([]);
    const first = await text(await get('/review', learner.cookie));
    expect(first).toContain('The flashcards of 3 lessons are being written');
    await waitFor(decksWritten(legacy, 3));
    const review = await text(await get('/review', learner.cookie));
    expect(dueToday(review)).toBe(9);
  });
});

describe('cards follow their lesson (ADR 0061)', () => {
  it('offers the deck of an edited lesson for rewriting, to its owner only, and rewrites it through its job', async () => {
    const author = await member();
    const course = await createCourse(author.cookie, ['Comets']);
    const [deck] = await waitFor(decksWritten(course, 1));
    const before = await cardsOf(course);
    const lessonId = deck!.lessonId;
    expect(await text(await get(`/course/${course}/cards`, author.cookie))).not.toContain(
      'This lesson changed since these cards were written.',
    );

    const edited = await post(`/lesson/${lessonId}/edit`, author.cookie, {
      intent: 'save',
      title: 'Comets',
      markdown: 'Comets are icy bodies with **tails**.',
    });
    expect(edited.status).toBe(302);
    expect((await decksOf(course))[0]!.lessonChanged).toBe(true);
    const offered = await text(await get(`/course/${course}/cards`, author.cookie));
    expect(offered).toContain('This lesson changed since these cards were written.');
    expect(offered).toContain('Rewrite cards');

    // Another member can neither see nor rewrite it.
    const other = await member();
    const refused = await post(`/course/${course}/cards`, other.cookie, {
      intent: 'rewrite',
      lessonId: String(lessonId),
    });
    expect(refused.status).toBe(404);
    expect((await decksOf(course))[0]).toMatchObject({ state: 'done', lessonChanged: true });

    const rewrite = await post(`/course/${course}/cards`, author.cookie, {
      intent: 'rewrite',
      lessonId: String(lessonId),
    });
    expect(rewrite.status).toBe(303);
    // The old cards stay until the new ones replace them, written from the current text.
    await waitFor(decksWritten(course, 1));
    const after = await cardsOf(course);
    expect(after).toHaveLength(3);
    expect(after.map((card) => card.id)).not.toEqual(before.map((card) => card.id));
    expect(await cardById(before[0]!.id)).toBeUndefined();
    expect((await decksOf(course))[0]!.lessonChanged).toBe(false);
    expect(await text(await get(`/course/${course}/cards`, author.cookie))).not.toContain(
      'This lesson changed since these cards were written.',
    );
    // Restoring the text the AI wrote changes the lesson again: offered again.
    const [generated] = await appDb()
      .select()
      .from(tables.lessonVersions)
      .where(
        and(
          eq(tables.lessonVersions.lessonId, lessonId),
          eq(tables.lessonVersions.kind, 'generated'),
        ),
      );
    const restored = await post(`/lesson/${lessonId}/history`, author.cookie, {
      versionId: String(generated!.id),
    });
    expect(restored.status).toBe(302);
    expect((await decksOf(course))[0]!.lessonChanged).toBe(true);
  });
});

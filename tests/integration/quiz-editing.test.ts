import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { QuizQuestion } from '../../db/schema';
import {
  QUIZ_ANSWER_MESSAGE,
  QUIZ_BUSY_MESSAGE,
  QUIZ_OPTION_COUNT_MESSAGE,
  QUIZ_SAME_OPTIONS_MESSAGE,
} from '~/domain/quiz-editing';
import { tables } from '~/utils/database.server';
import { startApp, type RunningApp } from '../support/app-process';
import {
  appDatabase,
  closeAppDatabases,
  createMember,
  sessionCookieValue,
} from '../support/members';

/**
 * The author edits a written quiz (issue 39, ADR 0061) over real HTTP, through the production
 * server and its worker in demo mode: the form a browser without JavaScript sends, the rules the
 * AI's quizzes pass, the owner only, and never over a quiz its job is still writing.
 */
let app: RunningApp;

beforeAll(async () => {
  app = await startApp({ JOB_BACKOFF_BASE_MS: '100' });
}, 180_000);

afterAll(async () => {
  await closeAppDatabases();
  await app?.stop();
});

async function member() {
  const created = await createMember(app);
  return { ...created, cookie: `__session=${await sessionCookieValue(app, created)}` };
}

const get = (pathname: string, cookie: string) =>
  fetch(`${app.baseURL}${pathname}`, { redirect: 'manual', headers: { Cookie: cookie } });

const post = (pathname: string, cookie: string, fields: Record<string, string>) =>
  fetch(`${app.baseURL}${pathname}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields),
  });

async function createCourse(cookie: string) {
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
            subtopics: [{ title: 'Planets', theory: '<p>Eight planets.</p>' }],
          },
        ],
      },
    }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { courseId: string }).courseId;
}

const appDb = () => appDatabase(app);
const quizRow = async (quizId: number) =>
  (await appDb().select().from(tables.quizzes).where(eq(tables.quizzes.id, quizId)))[0]!;

async function writtenTopicQuiz(courseId: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [quiz] = await appDb()
      .select()
      .from(tables.quizzes)
      .where(eq(tables.quizzes.courseId, courseId))
      .orderBy(tables.quizzes.id);
    if (quiz?.questions) return quiz as typeof quiz & { questions: QuizQuestion[] };
    if (Date.now() > deadline) throw new Error(`quiz not written:\n${app.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** The edit form as the page fills it: each question's fields, its options in the first slots. */
function form(questions: QuizQuestion[]): Record<string, string> {
  const fields: Record<string, string> = {};
  questions.forEach((q, i) => {
    fields[`q${i}-question`] = q.question;
    q.options.forEach((option, slot) => (fields[`q${i}-option${slot}`] = option));
    fields[`q${i}-answer`] = String(q.answer);
    fields[`q${i}-explanation`] = q.explanation;
  });
  return fields;
}

let owner: Awaited<ReturnType<typeof member>>;
let courseId: string;
let quiz: Awaited<ReturnType<typeof writtenTopicQuiz>>;

describe('editing a quiz', () => {
  beforeAll(async () => {
    owner = await member();
    courseId = await createCourse(owner.cookie);
    quiz = await writtenTopicQuiz(courseId);
  }, 90_000);

  it('saves a question, its options, the right option and the explanation; the quiz marks by them', async () => {
    const editPage = await get(`/quiz/${courseId}/${quiz.id}/edit`, owner.cookie);
    expect(editPage.status).toBe(200);
    expect(await editPage.text()).toContain('Option 6 is the right answer');

    const fields = form(quiz.questions);
    fields['q0-question'] = 'Which planet is largest?';
    // A fifth option in an empty slot, and it is the right one; the second slot emptied.
    fields['q0-option1'] = '';
    fields['q0-option4'] = 'Jupiter';
    fields['q0-answer'] = '4';
    fields['q0-explanation'] = 'Jupiter is the largest\nplanet.';
    const saved = await post(`/quiz/${courseId}/${quiz.id}/edit`, owner.cookie, fields);
    expect(saved.status).toBe(302);
    expect(saved.headers.get('location')).toBe(`/quiz/${courseId}/${quiz.id}`);

    const stored = (await quizRow(quiz.id)).questions!;
    const first = quiz.questions[0]!;
    expect(stored[0]).toEqual({
      question: 'Which planet is largest?',
      options: [first.options[0], ...first.options.slice(2), 'Jupiter'],
      answer: first.options.length - 1,
      explanation: 'Jupiter is the largest planet.',
    });
    expect(stored.slice(1)).toEqual(quiz.questions.slice(1));

    const page = await (await get(`/quiz/${courseId}/${quiz.id}`, owner.cookie)).text();
    expect(page).toContain('Which planet is largest?');
    const answers = Object.fromEntries(stored.map((q, i) => [`q${i}`, String(q.answer)]));
    const marked = await (await post(`/quiz/${courseId}/${quiz.id}`, owner.cookie, answers)).text();
    expect(marked).toContain(`You scored ${stored.length} out of ${stored.length}`);
    expect(marked).toContain('Jupiter is the largest planet.');
  });

  it("refuses a quiz the AI's rules refuse, with the rule's message, and keeps the stored one", async () => {
    const before = (await quizRow(quiz.id)).questions!;
    const fields = form(before);
    const cases: [Record<string, string>, string][] = [
      [
        { 'q1-option1': before[1]!.options[0]!.toUpperCase() },
        `Question 2: ${QUIZ_SAME_OPTIONS_MESSAGE}`,
      ],
      [{ 'q0-option5': '', 'q0-answer': '5' }, `Question 1: ${QUIZ_ANSWER_MESSAGE}`],
      [
        Object.fromEntries(
          Array.from({ length: 6 }, (_, slot) => [`q2-option${slot}`, slot === 0 ? 'Only' : '']),
        ),
        `Question 3: ${QUIZ_OPTION_COUNT_MESSAGE}`,
      ],
      [{ 'q0-explanation': '  ' }, 'Question 1: Explain the right option in 1 to 500 characters.'],
    ];
    for (const [change, message] of cases) {
      const refused = await post(`/quiz/${courseId}/${quiz.id}/edit`, owner.cookie, {
        ...fields,
        ...change,
      });
      expect(refused.status).toBe(400);
      const page = await refused.text();
      expect(page).toContain(message.replace(/'/g, '&#x27;'));
      // The page keeps what was typed.
      expect(page).toContain(before[0]!.question.replace(/"/g, '&quot;').slice(0, 20));
    }
    expect((await quizRow(quiz.id)).questions).toEqual(before);
  });

  it('answers 404 to another member, for the editor and for a save', async () => {
    const other = await member();
    const before = (await quizRow(quiz.id)).questions!;
    expect((await get(`/quiz/${courseId}/${quiz.id}/edit`, other.cookie)).status).toBe(404);
    const fields = form(before);
    fields['q0-question'] = 'Taken over?';
    const saved = await post(`/quiz/${courseId}/${quiz.id}/edit`, other.cookie, fields);
    expect(saved.status).toBe(404);
    // Nor through a course of their own with the quiz's id.
    const theirs = await createCourse(other.cookie);
    expect((await post(`/quiz/${theirs}/${quiz.id}/edit`, other.cookie, fields)).status).toBe(404);
    expect((await quizRow(quiz.id)).questions).toEqual(before);
  });

  it('refuses an edit while the quiz is being written (409), and its job still writes it', async () => {
    const before = (await quizRow(quiz.id)).questions!;
    // The quiz as its job holds it mid-write: no questions yet, a try running.
    await appDb()
      .update(tables.quizzes)
      .set({ questions: null, state: 'running' })
      .where(eq(tables.quizzes.id, quiz.id));
    const page = await get(`/quiz/${courseId}/${quiz.id}/edit`, owner.cookie);
    expect(page.status).toBe(409);
    expect(await page.text()).toContain(QUIZ_BUSY_MESSAGE);
    const refused = await post(`/quiz/${courseId}/${quiz.id}/edit`, owner.cookie, form(before));
    expect(refused.status).toBe(409);
    expect(await refused.text()).toContain(QUIZ_BUSY_MESSAGE);
    expect((await quizRow(quiz.id)).questions).toBeNull();
    // Opening the quiz gives it a job again, which writes it: the refused edit stood in no way.
    expect((await get(`/quiz/${courseId}/${quiz.id}`, owner.cookie)).status).toBe(200);
    expect((await writtenTopicQuiz(courseId)).questions).toHaveLength(before.length);
  });
});

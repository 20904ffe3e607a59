import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { quizzes } from '../../db/schema';
import { startApp, type RunningApp } from '../support/app-process';
import {
  appDatabase,
  closeAppDatabases,
  createMember,
  sessionCookieValue,
} from '../support/members';
import { tables } from '~/utils/database.server';

/**
 * Topic quizzes and the final exam over real HTTP, through the production server with its own
 * worker, in demo mode. The AI mock answers the first two quiz calls of each prompt with an
 * unusable quiz, so every quiz arrives only through the job's retries.
 */
let app: RunningApp;

beforeAll(async () => {
  app = await startApp({ MOCK_AI_MALFORMED: '2', JOB_BACKOFF_BASE_MS: '100' });
}, 180_000);

afterAll(async () => {
  await closeAppDatabases();
  await app?.stop();
});

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

/** A course of two topics (three lessons), its lessons already written, through the API. */
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
            subtopics: [
              { title: 'Planets', theory: '<p>Eight planets.</p>' },
              { title: 'Moons', theory: '<p>Many moons.</p>' },
            ],
          },
          {
            title: 'Stars',
            subtopics: [{ title: 'Star Life Cycles', theory: '<p>Stars are born.</p>' }],
          },
        ],
      },
    }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { courseId: string }).courseId;
}

// The running app's own database (tests/support/members.ts), queried through `tables`.
const appDb = () => appDatabase(app);
const quizzesOf = async (courseId: string) =>
  await appDb()
    .select()
    .from(tables.quizzes)
    .where(eq(tables.quizzes.courseId, courseId))
    .orderBy(tables.quizzes.id);

async function waitForQuizzes(courseId: string, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await quizzesOf(courseId);
    if (rows.length > 0 && rows.every((quiz) => quiz.questions)) return rows;
    if (Date.now() > deadline) throw new Error(`quizzes not written:\n${app.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Answers every question right except those listed. */
function answers(questions: { answer: number; options: string[] }[], wrong: number[] = []) {
  return Object.fromEntries(
    questions.map((q, i) => [
      `q${i}`,
      String(wrong.includes(i) ? (q.answer + 1) % q.options.length : q.answer),
    ]),
  );
}

let owner: Awaited<ReturnType<typeof member>>;
let courseId: string;
let written: (typeof quizzes.$inferSelect)[];

describe('topic quizzes and the final exam', () => {
  beforeAll(async () => {
    owner = await member();
    courseId = await createCourse(owner.cookie);
    written = await waitForQuizzes(courseId);
  }, 90_000);

  it('retries an unusable quiz from the AI until a valid one arrives', () => {
    // Two topic quizzes (3 questions each: one more than the lessons, at least 3) and the exam.
    expect(written.map((quiz) => [quiz.kind, quiz.questionCount])).toEqual([
      ['topic', 3],
      ['topic', 3],
      ['exam', 10],
    ]);
    for (const quiz of written) {
      // Two unusable answers, each a failed try the row counted, then a quiz.
      expect(quiz.attempts).toBe(2);
      expect(quiz.state).toBe('done');
      expect(quiz.questions).toHaveLength(quiz.questionCount);
      for (const question of quiz.questions!) {
        expect(question.answer).toBeGreaterThanOrEqual(0);
        expect(question.answer).toBeLessThan(question.options.length);
        expect(question.explanation.trim()).not.toBe('');
        expect(question.explanation).not.toContain('\n');
      }
    }
    expect(app.output()).toContain('quiz.try_failed');
  });

  it('never sends the answer key or explanations before the member submits', async () => {
    const topicQuiz = written[0]!;
    const pages = [
      await (await get(`/course/${courseId}`, owner.cookie)).text(),
      await (await get(`/quiz/${courseId}/${topicQuiz.id}`, owner.cookie)).text(),
      // The quiz loader's data as the browser fetches it on a client-side navigation.
      await (await get(`/quiz/${courseId}/${topicQuiz.id}.data`, owner.cookie)).text(),
    ];
    const quizPage = pages[1]!;
    for (const question of topicQuiz.questions!) {
      expect(quizPage).toContain(question.question.replace(/"/g, '&quot;'));
      for (const option of question.options) expect(pages[2]).toContain(option);
    }
    for (const page of pages) {
      expect(page).not.toMatch(/explanation/i);
      expect(page).not.toMatch(/"answer"/);
      for (const quiz of written)
        for (const question of quiz.questions!) expect(page).not.toContain(question.explanation);
    }
  });

  it('marks a submission, stores every attempt and shows best and last scores', async () => {
    const quiz = written[0]!;
    const questions = quiz.questions!;
    const first = await post(`/quiz/${courseId}/${quiz.id}`, owner.cookie, answers(questions, [1]));
    expect(first.status).toBe(200);
    const marked = await first.text();
    expect(marked).toContain(`You scored 2 out of 3`);
    // The explanations come back with the marking.
    for (const question of questions) expect(marked).toContain(question.explanation.split('"')[2]);

    const retake = await post(`/quiz/${courseId}/${quiz.id}`, owner.cookie, answers(questions));
    expect(await retake.text()).toContain('You scored 3 out of 3');

    const results = await get(`/quiz/${courseId}/${quiz.id}/results`, owner.cookie);
    expect(results.status).toBe(200);
    const body = (await results.json()) as { history: { score: number; total: number }[] };
    expect(body.history.map((h) => h.score)).toEqual([3, 2]);
    expect(
      await appDb()
        .select()
        .from(tables.quizAttempts)
        .where(eq(tables.quizAttempts.quizId, quiz.id)),
    ).toHaveLength(2);

    const course = await (await get(`/course/${courseId}`, owner.cookie)).text();
    expect(course).toContain('best 3/3 · last 3/3');
    const home = await (await get('/home', owner.cookie)).text();
    expect(home).toContain('Quizzes taken: 1/3');
  });

  it('answers bad submissions with 400 and a clear message, storing nothing', async () => {
    const quiz = written[1]!;
    const questions = quiz.questions!;
    const missing = answers(questions);
    delete missing.q2;
    const noAnswer = await post(`/quiz/${courseId}/${quiz.id}`, owner.cookie, missing);
    expect(noAnswer.status).toBe(400);
    expect(await noAnswer.text()).toContain('Answer every question: question 3 has no answer.');
    const outOfRange = await post(`/quiz/${courseId}/${quiz.id}`, owner.cookie, {
      ...answers(questions),
      q0: '7',
    });
    expect(outOfRange.status).toBe(400);
    expect(await outOfRange.text()).toContain('Question 1 has no option');
    expect(
      await appDb()
        .select()
        .from(tables.quizAttempts)
        .where(eq(tables.quizAttempts.quizId, quiz.id)),
    ).toEqual([]);
  });

  it("answers 404 for another member's quiz, its submission and its results", async () => {
    const other = await member();
    const quiz = written[0]!;
    expect((await get(`/quiz/${courseId}/${quiz.id}`, other.cookie)).status).toBe(404);
    const submitted = await post(
      `/quiz/${courseId}/${quiz.id}`,
      other.cookie,
      answers(quiz.questions!),
    );
    expect(submitted.status).toBe(404);
    expect(await submitted.text()).not.toContain('You scored');
    expect((await get(`/quiz/${courseId}/${quiz.id}/results`, other.cookie)).status).toBe(404);
    // Nor does a quiz id of another course open through the member's own course.
    const ownCourse = await createCourse(other.cookie);
    expect((await get(`/quiz/${ownCourse}/${quiz.id}`, other.cookie)).status).toBe(404);
    expect((await get(`/quiz/${ownCourse}/${quiz.id}/results`, other.cookie)).status).toBe(404);
  });

  it('opens the final exam only once every lesson is done', async () => {
    const exam = written[2]!;
    const locked = await (await get(`/quiz/${courseId}/${exam.id}`, owner.cookie)).text();
    expect(locked).toContain('The final exam opens once you have finished every lesson');
    expect(locked).not.toContain(exam.questions![0]!.question.replace(/"/g, '&quot;'));
    const early = await post(
      `/quiz/${courseId}/${exam.id}`,
      owner.cookie,
      answers(exam.questions!),
    );
    expect(early.status).toBe(409);

    const lessonIds = await appDb()
      .select({ id: tables.lessons.id })
      .from(tables.lessons)
      .where(eq(tables.lessons.courseId, courseId));
    for (const [index, lesson] of lessonIds.entries()) {
      const course = await (await get(`/course/${courseId}`, owner.cookie)).text();
      // Still locked until the last lesson is done.
      expect(course).toContain('opens when every lesson is done');
      const viewed = await post(`/course/${courseId}`, owner.cookie, {
        intent: 'open',
        lessonId: String(lesson.id),
      });
      expect(viewed.status, `lesson ${index}`).toBe(302);
    }
    const open = await (await get(`/quiz/${courseId}/${exam.id}`, owner.cookie)).text();
    expect(open).toContain(exam.questions![0]!.question.replace(/"/g, '&quot;'));
    const taken = await post(
      `/quiz/${courseId}/${exam.id}`,
      owner.cookie,
      answers(exam.questions!, [0]),
    );
    expect(await taken.text()).toContain('You scored 9 out of 10');
    const home = await (await get('/home', owner.cookie)).text();
    expect(home).toContain('exam best 9/10');
  });
});

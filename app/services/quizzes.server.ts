import { getCourseForUser, type Course } from '~/models/courses.server';
import {
  countOwedQuizzesInOtherCourses,
  getQuizOfCourse,
  insertAttempt,
  lessonsDoneOfCourse,
  listAttempts,
  listQuizzesOfCourse,
  scoresOfCourse,
  replaceQuizQuestions,
  type Quiz,
  type QuizAttempt,
} from '~/models/quizzes.server';
import { freshPriority } from '~/queues/priorities.server';
import { ensureQuizJobs } from '~/queues/quiz.server';
import {
  MAX_QUIZ_OPTIONS,
  QUIZ_BUSY_MESSAGE,
  quizQuestionCountMessage,
} from '~/domain/quiz-editing';
import { fail, ok, type Result } from '~/domain/result';
import { quizIssueMessage, quizQuestionsSchema } from '~/services/quiz-rules.server';
import type { QuizQuestion } from '../../db/schema';
import { log } from '~/utils/logger.server';
import { noteRedisFailure } from '~/utils/redis.server';

/**
 * Topic quizzes and the final exam as a member sees them (ADR 0018). Quizzes are part of the
 * course: generating them costs no AI allowance. Nothing here hands out a quiz's answer key or
 * explanations except `submitQuiz`, after the member has answered.
 */

/**
 * Gives every quiz of the course that has no questions yet a job, in course order after the
 * quizzes the member is owed in other courses (members take turns, ADR 38). Never throws.
 */
export async function keepQuizzesGenerating(courseId: string, quizzes?: Quiz[]) {
  const owed = (quizzes ?? (await listQuizzesOfCourse(courseId))).filter((quiz) => !quiz.questions);
  if (owed.length === 0) return;
  const owedElsewhere = await countOwedQuizzesInOtherCourses(courseId);
  try {
    await ensureQuizJobs(
      owed.map((quiz, index) => ({
        quizId: quiz.id,
        courseId,
        priority: freshPriority(owedElsewhere + index),
      })),
    );
  } catch (error) {
    // The rows stay queued; the worker's sweep enqueues them when Redis is back. An outage is
    // logged once by the outage watch, not once per member.
    if (!noteRedisFailure('quiz.enqueue', error))
      log.warn('quiz.enqueue_failed', { courseId, error });
  }
}

interface ScoreView {
  score: number;
  total: number;
}

export interface QuizSummary {
  id: number;
  kind: Quiz['kind'];
  title: string;
  topicId: number | null;
  ready: boolean;
  /** The exam opens once every lesson is done; a topic quiz once it is written. */
  open: boolean;
  attempts: number;
  best: ScoreView | null;
  last: ScoreView | null;
}

function isOpen(quiz: Quiz, lessons: { total: number; done: number }) {
  return (
    Boolean(quiz.questions) &&
    (quiz.kind === 'topic' || (lessons.total > 0 && lessons.done === lessons.total))
  );
}

/**
 * The course's quizzes with the member's best and last scores (no questions). A caller that has
 * the course's lessons at hand passes how many are done, and they are not read again.
 */
export async function courseQuizzes(
  courseId: string,
  userId: string,
  lessonsDone?: { total: number; done: number },
): Promise<QuizSummary[]> {
  const lessons = lessonsDone ?? (await lessonsDoneOfCourse(courseId));
  const quizzes = await listQuizzesOfCourse(courseId);
  const scores = await scoresOfCourse(courseId, userId);
  return quizzes.map((quiz) => {
    const score = scores.get(quiz.id);
    return {
      id: quiz.id,
      kind: quiz.kind,
      title: quiz.title,
      topicId: quiz.topicId,
      ready: Boolean(quiz.questions),
      open: isOpen(quiz, lessons),
      attempts: score?.attempts ?? 0,
      best: score?.best ?? null,
      last: score?.last ?? null,
    };
  });
}

const historyOf = (attempts: QuizAttempt[]) =>
  attempts.map((attempt) => ({
    score: attempt.score,
    total: attempt.total,
    at: attempt.createdAt.toISOString(),
  }));

/** The member's own course and quiz, or a 404 for anyone else's (or none). */
async function ownQuiz(
  userId: string,
  courseId: string,
  quizId: number,
): Promise<{ course: Course; quiz: Quiz } | undefined> {
  const course = await getCourseForUser(courseId, userId);
  const quiz =
    course && Number.isInteger(quizId) ? await getQuizOfCourse(quizId, course.id) : undefined;
  return course && quiz ? { course, quiz } : undefined;
}

export interface QuizView {
  course: { id: string; mainTopic: string; language: string };
  quiz: { id: number; kind: Quiz['kind']; title: string; questionCount: number };
  state: Quiz['state'];
  /** Failed tries so far, while the quiz is being written. */
  tries: number;
  open: boolean;
  /** The exam, while some lesson is not done yet. */
  locked: boolean;
  /** Questions and options only: never the right option or the explanation. */
  questions: { question: string; options: string[] }[] | null;
  history: { score: number; total: number; at: string }[];
}

/** A quiz to take: questions and options, and the member's earlier scores. */
export async function quizForMember(
  userId: string,
  courseId: string,
  quizId: number,
): Promise<Result<QuizView>> {
  const own = await ownQuiz(userId, courseId, quizId);
  if (!own) return fail('Not Found', 404);
  const { course, quiz } = own;
  if (!quiz.questions) await keepQuizzesGenerating(course.id, [quiz]);
  const lessons = await lessonsDoneOfCourse(course.id);
  const open = isOpen(quiz, lessons);
  return ok({
    course: { id: course.id, mainTopic: course.mainTopic, language: course.language },
    quiz: { id: quiz.id, kind: quiz.kind, title: quiz.title, questionCount: quiz.questionCount },
    state: quiz.state,
    tries: quiz.attempts,
    open,
    locked: quiz.kind === 'exam' && !(lessons.total > 0 && lessons.done === lessons.total),
    questions:
      open && quiz.questions
        ? quiz.questions.map(({ question, options }) => ({ question, options }))
        : null,
    history: historyOf(await listAttempts(quiz.id, userId)),
  });
}

/** The member's scores at one quiz, newest first. */
export async function quizResults(
  userId: string,
  courseId: string,
  quizId: number,
): Promise<Result<{ quizId: number; history: QuizView['history'] }>> {
  const own = await ownQuiz(userId, courseId, quizId);
  if (!own) return fail('Not Found', 404);
  return ok({ quizId: own.quiz.id, history: historyOf(await listAttempts(own.quiz.id, userId)) });
}

/**
 * The chosen option of each question, from a form (`q0`, `q1`, …) or JSON (`answers: [..]`),
 * or the message saying what is wrong.
 */
function readAnswers(
  body: Record<string, unknown>,
  questions: { options: string[] }[],
): Result<number[]> {
  const list = Array.isArray(body.answers) ? (body.answers as unknown[]) : undefined;
  const answers: number[] = [];
  for (const [index, question] of questions.entries()) {
    const raw = list ? list[index] : body[`q${index}`];
    const number = Number(Array.isArray(raw) ? raw[0] : raw);
    if (raw === undefined || raw === null || raw === '')
      return fail(`Answer every question: question ${index + 1} has no answer.`, 400);
    if (!Number.isInteger(number) || number < 0 || number >= question.options.length)
      return fail(
        `Question ${index + 1} has no option "${String(raw)}": choose one of its ${question.options.length} options.`,
        400,
      );
    answers.push(number);
  }
  if (list && list.length > questions.length)
    return fail(`The quiz has ${questions.length} questions, not ${list.length}.`, 400);
  return ok(answers);
}

export interface MarkedQuiz {
  score: number;
  total: number;
  /** Per question: the option chosen, the right one and why. */
  results: { chosen: number; answer: number; correct: boolean; explanation: string }[];
  history: QuizView['history'];
}

/** Marks a submission and stores it as a new attempt (each retake adds one). */
export async function submitQuiz(
  userId: string,
  courseId: string,
  quizId: number,
  body: Record<string, unknown>,
): Promise<Result<MarkedQuiz>> {
  const own = await ownQuiz(userId, courseId, quizId);
  if (!own) return fail('Not Found', 404);
  const { course, quiz } = own;
  if (!quiz.questions) return fail('The quiz is still being written.', 409);
  if (!isOpen(quiz, await lessonsDoneOfCourse(course.id)))
    return fail('The final exam opens once you have finished every lesson.', 409);
  const questions = quiz.questions;
  const answers = readAnswers(body, questions);
  if (!answers.ok) return answers;
  const results = questions.map((question, index) => ({
    chosen: answers.value[index]!,
    answer: question.answer,
    correct: answers.value[index] === question.answer,
    explanation: question.explanation,
  }));
  const score = results.filter((result) => result.correct).length;
  await insertAttempt({
    quizId: quiz.id,
    userId,
    answers: answers.value,
    score,
    total: questions.length,
  });
  return ok({
    score,
    total: questions.length,
    results,
    history: historyOf(await listAttempts(quiz.id, userId)),
  });
}

export interface QuizEditView {
  course: { id: string; mainTopic: string; language: string };
  quiz: { id: number; kind: Quiz['kind']; title: string };
  /** True while the quiz is being written: it cannot be edited until its questions are stored. */
  busy: boolean;
  /** The whole answer key: only the quiz's owner, its author, is shown it to edit it. */
  questions: QuizQuestion[];
}

function editView(course: Course, quiz: Quiz): QuizEditView {
  return {
    course: { id: course.id, mainTopic: course.mainTopic, language: course.language },
    quiz: { id: quiz.id, kind: quiz.kind, title: quiz.title },
    busy: !quiz.questions,
    questions: quiz.questions ?? [],
  };
}

/** A quiz with its answer key, for its owner to edit (ADR 0061); anyone else's is a 404. */
export async function quizForEditing(
  userId: string,
  courseId: string,
  quizId: number,
): Promise<Result<QuizEditView>> {
  const own = await ownQuiz(userId, courseId, quizId);
  if (!own) return fail('Not Found', 404);
  return ok(editView(own.course, own.quiz));
}

const field = (value: unknown) => (typeof value === 'string' ? value : '');

/**
 * The edited questions from a form (`q0-question`, `q0-option0` … `q0-option5`, `q0-answer` naming
 * an option's slot, `q0-explanation`) in the shape an API client sends (`questions: [...]`).
 * Blank option slots are left out, the right option counted among those kept, so a form can offer
 * empty slots to add options without JavaScript.
 */
function questionsFromForm(body: Record<string, unknown>, count: number): unknown[] {
  return Array.from({ length: count }, (_, index) => {
    const prefix = `q${index}-`;
    const slots = Array.from({ length: MAX_QUIZ_OPTIONS }, (_, slot) =>
      field(body[`${prefix}option${slot}`]),
    );
    const kept = slots.flatMap((option, slot) => (option.trim() ? [{ option, slot }] : []));
    const chosen = Number(field(body[`${prefix}answer`]) || Number.NaN);
    return {
      question: field(body[`${prefix}question`]),
      options: kept.map((each) => each.option),
      answer: kept.findIndex((each) => each.slot === chosen),
      explanation: field(body[`${prefix}explanation`]),
    };
  });
}

/** Text as one line: questions, options and explanations are shown on one line each. */
const oneLineOf = (text: string) => text.replace(/\s*[\r\n]+\s*/g, ' ');

/**
 * The author's last word on a written quiz (ADR 0061): its questions, options, right options and
 * explanations, checked by the rules the AI's quizzes pass (`quiz-rules.server.ts`), the number of
 * questions kept. A quiz still being written is a 409; the write itself is refused if the quiz
 * has no questions, so its job and an edit never write over each other. Earlier attempts keep
 * their scores.
 */
export async function editQuiz(
  userId: string,
  courseId: string,
  quizId: number,
  body: Record<string, unknown>,
): Promise<Result<QuizEditView>> {
  const own = await ownQuiz(userId, courseId, quizId);
  if (!own) return fail('Not Found', 404);
  const { course, quiz } = own;
  if (!quiz.questions) return fail(QUIZ_BUSY_MESSAGE, 409);
  const count = quiz.questions.length;
  const sent = Array.isArray(body.questions) ? body.questions : questionsFromForm(body, count);
  if (sent.length !== count) return fail(quizQuestionCountMessage(count), 400);
  const parsed = quizQuestionsSchema.safeParse({ questions: sent });
  if (!parsed.success) return fail(quizIssueMessage(parsed.error), 400);
  const questions = parsed.data.questions.map((q) => ({
    question: oneLineOf(q.question),
    options: q.options.map(oneLineOf),
    answer: q.answer,
    explanation: oneLineOf(q.explanation),
  }));
  if (!(await replaceQuizQuestions(quiz.id, questions))) return fail(QUIZ_BUSY_MESSAGE, 409);
  return ok(editView(course, { ...quiz, questions }));
}

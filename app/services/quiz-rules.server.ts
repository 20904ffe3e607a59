import { z } from 'zod';
import {
  atQuestion,
  MAX_QUIZ_EXPLANATION_CHARS,
  MAX_QUIZ_OPTION_CHARS,
  MAX_QUIZ_OPTIONS,
  MAX_QUIZ_QUESTION_CHARS,
  MIN_QUIZ_OPTIONS,
  QUIZ_ANSWER_MESSAGE,
  QUIZ_EXPLANATION_MESSAGE,
  QUIZ_OPTION_COUNT_MESSAGE,
  QUIZ_OPTION_MESSAGE,
  QUIZ_QUESTION_MESSAGE,
  QUIZ_SAME_OPTIONS_MESSAGE,
} from '~/domain/quiz-editing';

/**
 * One schema for a quiz question, whoever wrote it: the AI's answer is parsed with it (ADR 0018)
 * and an author's edit is checked with it (ADR 0061), so an edited quiz is one the AI could have
 * written. Callers add their own tidying (the AI's explanation made one line).
 */
const filled = (max: number, message: string) =>
  z.string({ error: message }).trim().min(1, message).max(max, message);

const quizQuestionSchema = z
  .object({
    question: filled(MAX_QUIZ_QUESTION_CHARS, QUIZ_QUESTION_MESSAGE),
    options: z
      .array(filled(MAX_QUIZ_OPTION_CHARS, QUIZ_OPTION_MESSAGE), {
        error: QUIZ_OPTION_COUNT_MESSAGE,
      })
      .min(MIN_QUIZ_OPTIONS, QUIZ_OPTION_COUNT_MESSAGE)
      .max(MAX_QUIZ_OPTIONS, QUIZ_OPTION_COUNT_MESSAGE),
    answer: z
      .number({ error: QUIZ_ANSWER_MESSAGE })
      .int(QUIZ_ANSWER_MESSAGE)
      .min(0, QUIZ_ANSWER_MESSAGE),
    explanation: filled(MAX_QUIZ_EXPLANATION_CHARS, QUIZ_EXPLANATION_MESSAGE),
  })
  .refine((q) => q.answer < q.options.length, { message: QUIZ_ANSWER_MESSAGE, path: ['answer'] })
  .refine((q) => new Set(q.options.map((o) => o.toLowerCase())).size === q.options.length, {
    message: QUIZ_SAME_OPTIONS_MESSAGE,
    path: ['options'],
  });

export const quizQuestionsSchema = z.object({
  questions: z
    .array(quizQuestionSchema, { error: QUIZ_QUESTION_MESSAGE })
    .min(1, QUIZ_QUESTION_MESSAGE),
});

/** A refused quiz's first problem, naming its question ("Question 2: Give 2 to 6 options."). */
export function quizIssueMessage(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return QUIZ_QUESTION_MESSAGE;
  const at = issue.path[0] === 'questions' ? issue.path[1] : issue.path[0];
  return atQuestion(typeof at === 'number' ? at : undefined, issue.message);
}

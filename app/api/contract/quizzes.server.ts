import { z } from 'zod';
import { QUIZ_KINDS } from '../../../db/enums';
import {
  MAX_QUIZ_EXPLANATION_CHARS,
  MAX_QUIZ_OPTION_CHARS,
  MAX_QUIZ_OPTIONS,
  MAX_QUIZ_QUESTION_CHARS,
  MIN_QUIZ_OPTIONS,
} from '~/domain/quiz-editing';
import { json, operation } from './operation.server';
import { success } from './shapes.server';

/** A written quiz with its answer key, for its author to edit (issue 39, ADR 0061). */
const quizParams = z.object({
  courseId: z.string().describe('The course’s id'),
  quizId: z.string().describe('The quiz’s id (the last part of /quiz/{courseId}/{quizId})'),
});

const Question = z.object({
  question: z.string().describe(`1 to ${MAX_QUIZ_QUESTION_CHARS} characters`),
  options: z
    .array(z.string().describe(`1 to ${MAX_QUIZ_OPTION_CHARS} characters`))
    .describe(`${MIN_QUIZ_OPTIONS} to ${MAX_QUIZ_OPTIONS} different options`),
  answer: z.number().int().describe('The right option’s index among the options, from 0'),
  explanation: z.string().describe(`One line, 1 to ${MAX_QUIZ_EXPLANATION_CHARS} characters`),
});

const QuizForEditing = z.object({
  course: z.object({ id: z.string(), mainTopic: z.string(), language: z.string() }),
  quiz: z.object({ id: z.number().int(), kind: z.enum(QUIZ_KINDS), title: z.string() }),
  busy: z
    .boolean()
    .describe('Being written: edits are refused (409) until its questions are stored'),
  questions: z.array(Question).describe('Empty while the quiz is being written'),
});

export const quizOperations = {
  quiz: operation({
    method: 'GET',
    path: '/api/quiz/{courseId}/{quizId}',
    file: 'api.quiz.$courseId.$quizId.ts',
    summary: 'A quiz with its answer key, to edit',
    description:
      'Every question with its options, the right option and the explanation. Another member’s quiz is a 404.',
    tag: 'Courses',
    audience: 'member',
    errors: [404],
    params: quizParams,
    responses: { 200: json('The quiz', z.object({ success, quiz: QuizForEditing })) },
  }),
  editQuiz: operation({
    method: 'POST',
    path: '/api/quiz/{courseId}/{quizId}',
    file: 'api.quiz.$courseId.$quizId.ts',
    summary: 'Edit a written quiz',
    description:
      'Replaces every question, checked by the rules the AI’s quizzes pass (400 naming the question and the rule); the number of questions stays. A quiz being written is a 409; another member’s a 404. Earlier attempts keep their scores.',
    tag: 'Courses',
    audience: 'member',
    errors: [400, 404, 409],
    params: quizParams,
    body: z.object({ questions: z.array(Question) }),
    responses: { 200: json('Saved', z.object({ success, quiz: QuizForEditing })) },
  }),
};

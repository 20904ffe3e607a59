/**
 * The rules a quiz question keeps, whoever wrote it (the AI, ADR 0018, or its author, ADR 0061),
 * and the messages that name a broken one. Browser-safe: the editor's fields carry the same
 * limits the server enforces.
 */

export const MAX_QUIZ_QUESTION_CHARS = 500;
export const MAX_QUIZ_OPTION_CHARS = 300;
export const MAX_QUIZ_EXPLANATION_CHARS = 500;
export const MIN_QUIZ_OPTIONS = 2;
export const MAX_QUIZ_OPTIONS = 6;

export const QUIZ_QUESTION_MESSAGE = `Write the question in 1 to ${MAX_QUIZ_QUESTION_CHARS} characters.`;
export const QUIZ_OPTION_MESSAGE = `Write each option in 1 to ${MAX_QUIZ_OPTION_CHARS} characters.`;
export const QUIZ_OPTION_COUNT_MESSAGE = `Give ${MIN_QUIZ_OPTIONS} to ${MAX_QUIZ_OPTIONS} options.`;
export const QUIZ_ANSWER_MESSAGE = 'Choose the right option among the options.';
export const QUIZ_SAME_OPTIONS_MESSAGE = 'Two options are the same: make each option different.';
export const QUIZ_EXPLANATION_MESSAGE = `Explain the right option in 1 to ${MAX_QUIZ_EXPLANATION_CHARS} characters.`;
export const QUIZ_BUSY_MESSAGE =
  'This quiz is still being written. You can edit it once its questions are ready.';

/** An edit keeps the quiz's number of questions: scores stay comparable from one attempt to the next. */
export const quizQuestionCountMessage = (count: number) =>
  `The quiz has ${count} questions: send all ${count}, each with its options, the right option and the explanation.`;

/** "Question 2: " before a rule's message, so the author knows which question to fix. */
export const atQuestion = (index: number | undefined, message: string) =>
  index === undefined ? message : `Question ${index + 1}: ${message}`;

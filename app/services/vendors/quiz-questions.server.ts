import { stripCodeFences } from '~/utils/markdown.server';
import type { QuizQuestion } from '../../../db/schema';
import type { AiTool } from './ai-provider.server';
import { AiOutputError, type CallOptions, callTool, oneLine, TEACHER_SYSTEM } from './ai.server';
import { languageInstruction } from '~/domain/languages';
import { quizIssueMessage, quizQuestionsSchema } from '~/services/quiz-rules.server';

/**
 * Quiz questions from the model as a forced tool call, accepted only when each question keeps
 * the quiz rules (`quiz-rules.server.ts`: one right option among 2 to 6 distinct ones, an
 * explanation), which an author's edit keeps too (ADR 0018, 0061).
 */
const QUIZ_TOOL = 'course_quiz';

export interface QuizRequest {
  mainTopic: string;
  /** The topic the quiz follows, or undefined for the final exam. */
  topic?: string;
  lessonTitles: string[];
  questionCount: number;
  language?: string;
  /**
   * The passages of the member's own material its lessons quote first (ADR 0058), each headed
   * "[n] Heading (pages a–b)"; the questions are written from them.
   */
  passages?: string;
}

export function quizPrompt({
  mainTopic,
  topic,
  lessonTitles,
  questionCount,
  language,
  passages,
}: QuizRequest) {
  return [
    `Main topic: ${oneLine(mainTopic)}`,
    topic ? `Quiz on topic: ${oneLine(topic)}` : 'Quiz on topic: the whole course (final exam)',
    `Lessons: ${lessonTitles.map(oneLine).join('; ')}`,
    `Number of questions: ${questionCount}`,
    '',
    `Write ${questionCount} multiple-choice questions that check a learner understood these lessons of the course. Each question has 4 options of which exactly one is right, the index (from 0) of the right option, and a one-line explanation of why it is right.`,
    `Answer only with the ${QUIZ_TOOL} tool.`,
    languageInstruction(language),
    ...(passages
      ? [
          '',
          "Write the questions from the learner's own material below: ask about what these passages say, so that every right option is stated by the material, and make the wrong options plausible but not stated by it. Where you and the material disagree, follow the material.",
          'Source passages:',
          passages,
        ]
      : []),
  ].join('\n');
}

const quizTool: AiTool = {
  name: QUIZ_TOOL,
  description:
    'Records a multiple-choice quiz: each question with its options, the right one and why.',
  inputSchema: {
    type: 'object',
    properties: {
      questions: {
        type: 'array',
        minItems: 1,
        items: {
          type: 'object',
          properties: {
            question: { type: 'string' },
            options: { type: 'array', minItems: 2, maxItems: 6, items: { type: 'string' } },
            answer: { type: 'integer', minimum: 0 },
            explanation: { type: 'string' },
          },
          required: ['question', 'options', 'answer', 'explanation'],
        },
      },
    },
    required: ['questions'],
  },
};

/** The model's answer (an object, or JSON text with or without fences) as questions, or AiOutputError. */
export function parseQuiz(raw: unknown, questionCount: number): QuizQuestion[] {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(stripCodeFences(raw));
    } catch {
      throw new AiOutputError('The quiz is not valid JSON');
    }
  }
  const parsed = quizQuestionsSchema.safeParse(value);
  if (!parsed.success)
    throw new AiOutputError(`The quiz has the wrong shape: ${quizIssueMessage(parsed.error)}`);
  if (parsed.data.questions.length < questionCount)
    throw new AiOutputError(
      `The quiz has ${parsed.data.questions.length} questions instead of ${questionCount}`,
    );
  return parsed.data.questions.slice(0, questionCount).map((q) => ({
    question: q.question,
    options: q.options,
    answer: q.answer,
    // One line, as the page shows it.
    explanation: oneLine(q.explanation),
  }));
}

export async function generateQuiz(request: QuizRequest, options: CallOptions = {}) {
  const answer = await callTool(
    {
      purpose: 'quiz',
      system: TEACHER_SYSTEM,
      messages: [{ role: 'user', content: quizPrompt(request) }],
      tool: quizTool,
    },
    options,
  );
  return parseQuiz(answer, request.questionCount);
}

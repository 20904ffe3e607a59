import { z } from 'zod';
import {
  DECK_MAX_CARDS,
  DECK_MIN_CARDS,
  MAX_ANSWER_CHARS,
  MAX_ANSWER_WORDS,
  MAX_QUESTION_CHARS,
} from '~/domain/flashcards';
import { stripCodeFences } from '~/utils/markdown.server';
import { htmlToPlainText } from '~/utils/text';
import type { AiTool } from './ai-provider.server';
import { AiOutputError, type CallOptions, callTool, oneLine, TEACHER_SYSTEM } from './ai.server';
import { languageInstruction } from '~/domain/languages';

/**
 * A lesson's flashcards from the model as a forced tool call, accepted only when every card asks
 * one question and answers it with one short fact (ADR 0033). Anything else is unusable: the
 * job's try fails and is retried like a quiz's.
 */
const FLASHCARDS_TOOL = 'lesson_flashcards';
/** How much of the lesson's text goes into the prompt. */
const LESSON_TEXT_CHARS = 12_000;
/** The deck the prompt asks for; the model may give between DECK_MIN_CARDS and more. */
const CARDS_ASKED = 4;

export interface DeckRequest {
  mainTopic: string;
  lessonTitle: string;
  /** The stored lesson (sanitized HTML). */
  lessonHtml: string;
  language?: string;
}

export interface DeckCard {
  question: string;
  answer: string;
}

export function flashcardsPrompt({ mainTopic, lessonTitle, lessonHtml, language }: DeckRequest) {
  return [
    `Main topic: ${oneLine(mainTopic)}`,
    `Lesson: ${oneLine(lessonTitle)}`,
    `Number of cards: ${CARDS_ASKED}`,
    '',
    `Write ${CARDS_ASKED} flashcards that help a learner remember the most important facts of this lesson. Each card asks one question about one fact taught in the lesson text below, and its answer states that fact alone: a word, a name, a number or a short phrase of at most ${MAX_ANSWER_WORDS} words, one sentence, no lists. Questions are at most ${MAX_QUESTION_CHARS} characters and end with a question mark. Do not ask two cards about the same fact.`,
    `Answer only with the ${FLASHCARDS_TOOL} tool.`,
    languageInstruction(language),
    'Lesson text:',
    htmlToPlainText(lessonHtml, LESSON_TEXT_CHARS),
  ].join('\n');
}

const flashcardsTool: AiTool = {
  name: FLASHCARDS_TOOL,
  description: 'Records the flashcards of one lesson: each a question and its short answer.',
  inputSchema: {
    type: 'object',
    properties: {
      cards: {
        type: 'array',
        minItems: DECK_MIN_CARDS,
        items: {
          type: 'object',
          properties: {
            question: { type: 'string', maxLength: MAX_QUESTION_CHARS },
            answer: { type: 'string', maxLength: MAX_ANSWER_CHARS },
          },
          required: ['question', 'answer'],
        },
      },
    },
    required: ['cards'],
  },
};

/**
 * A question mark (Latin, full-width or Arabic) with more text after it: a second question. One
 * inside a quoted title (`teaches "What is X?"?`) is followed by the quote, not by words.
 */
const SECOND_QUESTION = /[?؟]\s+\S|？[^\s"'”’»」』)]/;
/**
 * Two sentences of three words or more: two facts. (A lone "Dr." or "approx." before a name or
 * a number is not a sentence, and "9.8" has no space after its point.)
 */
const sentences = (text: string) =>
  text.split(/(?<=[.!?])\s+|(?<=[。！？؟])/).filter((part) => part.trim().split(/\s+/).length >= 3);
/** Separators and markers that make an answer a list. */
const LIST = /[;；\n\r]|^\s*(?:[-*•]|\d+[.)])\s/;

const question = z
  .string()
  .trim()
  .min(1, 'A card has no question')
  .max(MAX_QUESTION_CHARS, `A question is longer than ${MAX_QUESTION_CHARS} characters`)
  .refine((text) => !/[\r\n]/.test(text), 'A question spans several lines')
  .refine((text) => /[?？؟]$/.test(text), 'A question must end with a question mark')
  .refine((text) => !SECOND_QUESTION.test(text), 'A card must ask one question only');

const answer = z
  .string()
  .trim()
  .min(1, 'A card has no answer')
  .max(MAX_ANSWER_CHARS, `An answer is longer than ${MAX_ANSWER_CHARS} characters`)
  .refine((text) => !LIST.test(text), 'An answer is a list, not one fact')
  .refine(
    (text) => text.split(/\s+/).length <= MAX_ANSWER_WORDS,
    `An answer is longer than ${MAX_ANSWER_WORDS} words`,
  )
  .refine((text) => sentences(text).length <= 1, 'An answer has more than one sentence');

const deckSchema = z.object({
  cards: z.array(z.object({ question, answer })).min(DECK_MIN_CARDS, 'The deck has too few cards'),
});

/**
 * The model's answer (an object, or JSON text with or without fences) as a deck of at most
 * DECK_MAX_CARDS cards, or AiOutputError saying what is wrong.
 */
export function parseFlashcards(raw: unknown): DeckCard[] {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(stripCodeFences(raw));
    } catch {
      throw new AiOutputError('The flashcards are not valid JSON');
    }
  }
  const parsed = deckSchema.safeParse(value);
  if (!parsed.success)
    throw new AiOutputError(`The flashcards are unusable: ${parsed.error.issues[0]?.message}`);
  const cards = parsed.data.cards.map((card) => ({
    question: card.question,
    // A full stop at the end of a short answer is noise on a card.
    answer: card.answer.replace(/[.。]$/, ''),
  }));
  const asked = new Set(cards.map((card) => card.question.toLowerCase()));
  if (asked.size !== cards.length) throw new AiOutputError('Two flashcards ask the same question');
  return cards.slice(0, DECK_MAX_CARDS);
}

export async function generateFlashcards(request: DeckRequest, options: CallOptions = {}) {
  const answer = await callTool(
    {
      purpose: 'flashcards',
      system: TEACHER_SYSTEM,
      messages: [{ role: 'user', content: flashcardsPrompt(request) }],
      tool: flashcardsTool,
    },
    options,
  );
  return parseFlashcards(answer);
}

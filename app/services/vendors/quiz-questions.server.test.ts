import { describe, expect, it } from 'vitest';
import { QUIZ_SAME_OPTIONS_MESSAGE } from '~/domain/quiz-editing';
import { AiOutputError } from './ai.server';
import { parseQuiz, quizPrompt } from './quiz-questions.server';

const question = (answer = 1) => ({
  question: 'What does a lens do?',
  options: ['Bends light', 'Stores light', 'Makes light'],
  answer,
  explanation: 'A lens bends light\nto focus it.',
});

describe('parseQuiz', () => {
  it('accepts a quiz as an object or fenced JSON, cuts extra questions and makes explanations one line', () => {
    const quiz = { questions: [question(0), question(2), question(1), question(0)] };
    const parsed = parseQuiz(quiz, 3);
    expect(parsed).toHaveLength(3);
    expect(parsed.map((q) => q.answer)).toEqual([0, 2, 1]);
    expect(parsed[0]!.explanation).toBe('A lens bends light to focus it.');
    expect(parseQuiz('```json\n' + JSON.stringify(quiz) + '\n```', 4)).toHaveLength(4);
  });

  it.each([
    ['broken JSON', '{"questions": [{"question": "Unf'],
    ['no questions key', { answer: 'I could not write a quiz.' }],
    ['a right option out of range', { questions: [question(3)] }],
    ['one option only', { questions: [{ ...question(0), options: ['Only one'] }] }],
    ['the same option twice', { questions: [{ ...question(0), options: ['A', 'a'] }] }],
    ['an empty explanation', { questions: [{ ...question(0), explanation: ' ' }] }],
    ['fewer questions than asked', { questions: [question(), question()] }],
  ])('refuses %s as unusable', (_, raw) => {
    expect(() => parseQuiz(raw, 3)).toThrow(AiOutputError);
  });
  it("names the broken question and its rule, in the words an author's edit is refused with", () => {
    const raw = { questions: [question(0), { ...question(0), options: ['A', 'a'] }] };
    expect(() => parseQuiz(raw, 2)).toThrow(
      `The quiz has the wrong shape: Question 2: ${QUIZ_SAME_OPTIONS_MESSAGE}`,
    );
  });
});

describe('quizPrompt', () => {
  it('names the topic, its lessons and the count, and ends with the language lines', () => {
    const prompt = quizPrompt({
      mainTopic: 'Optics',
      topic: 'Lenses\nand mirrors',
      lessonTitles: ['Convex lenses', 'Concave; mirrors'],
      questionCount: 3,
      language: 'fr',
    });
    expect(prompt).toContain('Quiz on topic: Lenses and mirrors');
    expect(prompt).toContain('Lessons: Convex lenses; Concave, mirrors');
    expect(prompt).toContain('Number of questions: 3');
    expect(prompt).toMatch(/French/);
  });
});

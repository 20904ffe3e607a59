import { describe, expect, it } from 'vitest';
import { mockToolInput, QUIZ_TOOL } from '../../../mocks/ai-answers';
import { readKnobs } from '../../../mocks/knobs';
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

const PASSAGES = [
  '[2] 1.2 Glob patterns (page 4)',
  'A glob pattern matches file names. The pattern *.txt matches every text file. A longer pattern wins over a shorter one.',
  '',
  '[5] 2.1 Magic rules (pages 5–6)',
  'Magic rules look at the first bytes of a file. Each rule has a priority from 0 to 100.',
].join('\n');

describe('a quiz from the member’s material (ADR 0058)', () => {
  const request = {
    mainTopic: 'Shared MIME-info',
    topic: 'From 1.2 Glob patterns to 2.1 Magic rules',
    lessonTitles: ['1.2 Glob patterns', '2.1 Magic rules'],
    questionCount: 3,
    passages: PASSAGES,
  };

  it('carries the passages, after what to do with them', () => {
    const prompt = quizPrompt(request);
    expect(prompt).toMatch(
      /from the learner's own material below[^\n]*\nSource passages:\n\[2\] 1\.2 Glob/,
    );
    expect(prompt.endsWith('a priority from 0 to 100.')).toBe(true);
    expect(quizPrompt({ ...request, passages: undefined })).not.toContain('Source passages');
  });

  it('is written by the demo from the passages, and the product accepts it', () => {
    const answer = mockToolInput(
      { system: '', messages: [{ role: 'user', content: quizPrompt(request) }], tool: QUIZ_TOOL },
      readKnobs(),
    );
    const quiz = parseQuiz(answer, 3);
    expect(quiz.map((q) => [q.question, q.options[q.answer]])).toEqual([
      [
        'What does your material say in "1.2 Glob patterns" (page 4)?',
        'A glob pattern matches file names.',
      ],
      [
        'What does your material say in "2.1 Magic rules" (pages 5–6)?',
        'Magic rules look at the first bytes of a file.',
      ],
      [
        '(2) What does your material say in "1.2 Glob patterns" (page 4)?',
        'The pattern *.txt matches every text file.',
      ],
    ]);
    // Its wrong options are what another section says, or plain misreadings.
    expect(quiz[0]!.options).toContain('Magic rules look at the first bytes of a file.');
    expect(quiz[0]!.options).toContain('It says nothing about 1.2 Glob patterns');
  });
});

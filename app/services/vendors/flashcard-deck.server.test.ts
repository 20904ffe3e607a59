import { describe, expect, it } from 'vitest';
import { FLASHCARDS_TOOL, mockOutline, mockToolInput } from '../../../mocks/ai-answers';
import { readKnobs, type MockKnobs } from '../../../mocks/knobs';
import { AiOutputError } from './ai.server';
import { flashcardsPrompt, parseFlashcards } from './flashcard-deck.server';

const card = (question: string, answer: string) => ({ question, answer });
const deck = (...extra: { question: string; answer: string }[]) => ({
  cards: [
    card('What does a convex lens do to light?', 'It bends light inwards.'),
    card('Who described refraction in 1621?', 'Willebrord Snellius'),
    card('What is the speed of light in a vacuum?', 'About 3.0 × 10^8 m/s'),
    ...extra,
  ],
});

describe('parseFlashcards', () => {
  it('accepts a deck as an object or fenced JSON, drops a final full stop and keeps at most five', () => {
    const parsed = parseFlashcards(deck());
    expect(parsed).toEqual([
      card('What does a convex lens do to light?', 'It bends light inwards'),
      card('Who described refraction in 1621?', 'Willebrord Snellius'),
      card('What is the speed of light in a vacuum?', 'About 3.0 × 10^8 m/s'),
    ]);
    const long = deck(
      card('What is a focal point?', 'Where parallel rays meet'),
      card('What does a prism split light into?', 'Colours'),
      card('What is a concave mirror also called?', 'A converging mirror'),
    );
    expect(parseFlashcards('```json\n' + JSON.stringify(long) + '\n```')).toHaveLength(5);
  });

  it('accepts questions in other scripts and answers with an abbreviation', () => {
    const parsed = parseFlashcards({
      cards: [
        card('¿Qué hace una lente convexa?', 'Converge la luz'),
        card('凸レンズは光をどうしますか？', '光を集める'),
        card('ماذا تفعل العدسة المحدبة؟', 'تجمع الضوء'),
        card('Who measured it first?', 'Dr. Ole Rømer in 1676'),
        card('Which course teaches "What is Optics?"?', 'Optics'),
      ],
    });
    expect(parsed).toHaveLength(5);
  });

  it.each([
    ['broken JSON', '{"cards": [{"question": "Unf'],
    ['no cards key', { answer: 'I could not write flashcards.' }],
    ['too few cards', { cards: deck().cards.slice(0, 2) }],
    ['an empty answer', deck(card('What is a lens?', ' '))],
    ['a statement, not a question', deck(card('A lens bends light.', 'Yes'))],
    ['two questions on one card', deck(card('What is a lens? And a prism?', 'Glass'))],
    ['two questions in Chinese', deck(card('什么是透镜？什么是棱镜？', '玻璃'))],
    ['a question over several lines', deck(card('What is\na lens?', 'Glass'))],
    ['an answer that is a list', deck(card('What bends light?', 'Lenses; prisms; water'))],
    ['an answer in bullets', deck(card('What bends light?', '- lenses'))],
    [
      'an answer of two sentences',
      deck(card('What does a lens do?', 'It bends light. It also forms images of things.')),
    ],
    [
      'an answer of more than fifteen words',
      deck(
        card(
          'What is optics?',
          'the branch of physics that studies the behaviour and properties of light including its many interactions',
        ),
      ),
    ],
    ['an answer of more than 150 characters', deck(card('What is it?', 'x'.repeat(151)))],
    ['the same question twice', deck(card('what does a convex lens do to light?', 'Bends it'))],
  ])('refuses %s as unusable', (_, raw) => {
    expect(() => parseFlashcards(raw)).toThrow(AiOutputError);
  });
});

describe('flashcardsPrompt', () => {
  it('names the course, the lesson and the deck size, then gives the lesson as plain text', () => {
    const prompt = flashcardsPrompt({
      mainTopic: 'Optics',
      lessonTitle: 'Lenses\nand mirrors',
      lessonHtml: '<h2>Lenses</h2><p>A lens bends light &amp; forms images.</p>',
      language: 'fr',
    });
    expect(prompt).toContain('Main topic: Optics');
    expect(prompt).toContain('Lesson: Lenses and mirrors');
    expect(prompt).toContain('Number of cards: 4');
    expect(prompt).toMatch(/French/);
    expect(prompt.endsWith('Lenses A lens bends light & forms images.')).toBe(true);
  });
});

describe("the demo AI mock's decks", () => {
  const knobs = (aiMalformed: number, version: string): MockKnobs => ({
    ...readKnobs(),
    aiMalformed,
    version,
  });
  const ask = (lessonTitle: string, mockKnobs: MockKnobs) =>
    mockToolInput(
      {
        system: 'teacher',
        tool: FLASHCARDS_TOOL,
        messages: [
          {
            role: 'user',
            content: flashcardsPrompt({
              mainTopic: 'Volcanoes',
              lessonTitle,
              lessonHtml: '<p>Lava is molten rock.</p>',
            }),
          },
        ],
      },
      mockKnobs,
    );

  it('are valid for every lesson of the mock outline', () => {
    const titles = mockOutline('Volcanoes', 10, ['Lava'], 4).flatMap((topic) =>
      topic.subtopics.map((lesson) => lesson.title),
    );
    expect(titles).toContain('What is Volcanoes?');
    for (const title of titles) {
      const cards = parseFlashcards(ask(title, knobs(0, 'valid')));
      expect(cards).toHaveLength(3);
      expect(cards[0]!.question).toContain(title);
    }
  });

  it('are unusable for the first N requests under MOCK_AI_MALFORMED', () => {
    const malformed = knobs(3, `malformed-${Math.random()}`);
    for (let i = 0; i < 3; i += 1)
      expect(() => parseFlashcards(ask('Lava flows', malformed))).toThrow(AiOutputError);
    expect(parseFlashcards(ask('Lava flows', malformed))).toHaveLength(3);
  });
});

describe('the demo’s cards from the member’s material (ADR 0058)', () => {
  /** The demo's deck for the demo's lesson on one passage, as the product parses it. */
  async function deckOn(heading: string, pages: string, text: string) {
    const { mockMarkdownLesson } = await import('../../../mocks/ai-answers');
    const { markdownToSafeHtml } = await import('~/utils/markdown.server');
    const lesson = mockMarkdownLesson(
      [
        'Main topic: MIME',
        `Sub-topic: ${heading}`,
        'Source passages:',
        `[3] ${heading} (${pages})`,
        text,
      ].join('\n'),
    );
    const prompt = flashcardsPrompt({
      mainTopic: 'MIME',
      lessonTitle: heading,
      lessonHtml: markdownToSafeHtml(lesson),
    });
    const answer = mockToolInput(
      { system: '', messages: [{ role: 'user', content: prompt }], tool: FLASHCARDS_TOOL },
      readKnobs(),
    );
    return parseFlashcards(answer);
  }

  it('asks about the passage the lesson quotes, and the product accepts the deck', async () => {
    const text = 'The key words must and should are used as in RFC 2119. The database is XML.';
    expect(await deckOn('1.3 Language used', 'page 4', text)).toEqual([
      card(
        'Where in your material is "1.3 Language used" taught?',
        'In 1.3 Language used (page 4)',
      ),
      card(
        'What does your material say first about "1.3 Language used"?',
        'The key words must and should are used as in RFC 2119',
      ),
      card('Which term of your material does "1.3 Language used" explain?', 'should'),
    ]);
  });

  it('is accepted for a numbered heading, which alone would read as a list item', async () => {
    const deck = await deckOn('1. Introduction', 'pages 3–4', 'This database maps files to types.');
    expect(deck[0]!.answer).toBe('In 1. Introduction (pages 3–4)');
  });
});

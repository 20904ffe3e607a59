import fs from 'node:fs';
import { nextCall, type MockKnobs } from './knobs';
import { LANGUAGE_PHRASES, type LanguagePhrases } from './language-phrases';

/**
 * What the mocked models answer, whatever the vendor's wire format: a plausible,
 * topic-specific outline for the outline tool, and Markdown text for everything else
 * (a lesson on the prompt's sub-topic, or a summary when the prompt carries a
 * transcript). Each vendor's mock (`anthropic.ts`, ...) wraps these answers in its
 * own format, so every provider writes the same demo course.
 */
export const OUTLINE_TOOL = 'course_outline';

function field(prompt: string, label: string): string | undefined {
  const match = new RegExp(`^${label}:[ \\t]*(.*)$`, 'im').exec(prompt);
  return match?.[1]?.trim() || undefined;
}

/**
 * Topic titles that read as a real course on `main`, member topics first;
 * two sub-topics each unless `subtopicCount` asks for more (as a prompt may).
 */
export function mockOutline(
  main: string,
  count: number,
  memberTopics: string[],
  subtopicCount = 2,
) {
  const templates: [string, string[]][] = [
    [`Introduction to ${main}`, [`What is ${main}?`, `Why Learn ${main}`]],
    [`${main} Fundamentals`, [`Basic ${main} Terminology`, `First Steps with ${main}`]],
    [`Core Concepts of ${main}`, [`The Building Blocks of ${main}`, `How ${main} Works`]],
    [`Working with ${main}`, [`Setting Up for ${main}`, `Everyday ${main} Tasks`]],
    [`${main} in Practice`, [`A Real-World ${main} Example`, `Common ${main} Mistakes`]],
    [`Advanced ${main}`, [`Advanced ${main} Techniques`, `${main} Performance Tips`]],
    [`${main} Tools and Ecosystem`, [`Popular ${main} Tools`, `The ${main} Community`]],
    [`Common ${main} Patterns`, [`Reusable ${main} Patterns`, `Anti-Patterns in ${main}`]],
    [`Testing and Debugging ${main}`, [`Testing ${main}`, `Debugging ${main} Problems`]],
    [`${main} Best Practices`, [`${main} Best Practices Checklist`, `Where to Go Next`]],
  ];
  const topics = memberTopics
    .slice(0, count)
    .map((topic) => ({ title: topic, subtopics: [`${topic} in ${main}`, `${topic} by Example`] }));
  for (let i = 0; topics.length < count; i += 1) {
    const [title, subtopics] = templates[i % templates.length]!;
    const round = Math.floor(i / templates.length);
    topics.push({
      title: round ? `${title} (Part ${round + 1})` : title,
      subtopics: round ? subtopics.map((s) => `${s} (Part ${round + 1})`) : subtopics,
    });
  }
  const more = (topic: { title: string; subtopics: string[] }) =>
    Array.from({ length: Math.max(subtopicCount, 1) }, (_, i) =>
      i < topic.subtopics.length ? topic.subtopics[i]! : `${topic.title}: Part ${i + 1}`,
    );
  return topics.map((topic) => ({
    title: topic.title,
    subtopics: more(topic).map((title) => ({
      title,
      theory: '',
      youtube: '',
      image: '',
      done: false,
    })),
  }));
}

/** The phrases of the prompt's `Language:` line, or undefined for English (or none). */
function phrasesOf(prompt: string): LanguagePhrases | undefined {
  const language = field(prompt, 'Language');
  return language ? LANGUAGE_PHRASES[language] : undefined;
}

/** `mockOutline`'s course in another language: its topic words around the main topic. */
function localizedOutline(
  main: string,
  count: number,
  memberTopics: string[],
  subtopicCount: number,
  phrases: LanguagePhrases,
) {
  return Array.from({ length: count }, (_, i) => {
    const word = phrases.topics[i % phrases.topics.length]!;
    const round = Math.floor(i / phrases.topics.length);
    const title =
      memberTopics[i] ?? `${word}: ${main}${round ? ` (${phrases.part} ${round + 1})` : ''}`;
    return {
      title,
      subtopics: Array.from({ length: Math.max(subtopicCount, 1) }, (_, k) => ({
        title: `${word} ${k + 1}: ${memberTopics[i] ?? main}${round ? ` (${round + 1})` : ''}`,
        theory: '',
        youtube: '',
        image: '',
        done: false,
      })),
    };
  });
}

/**
 * The main topic of an API client's own outline prompt, which has no `Main topic:` line: the
 * original client asks "…for main title rust, everything in single line… in this format
 * {"rust": [...]}" and reads the outline under that key, so the key it names comes first.
 */
export function clientMainTopic(prompt: string): string | undefined {
  const key = /format[^{]*\{\s*"([^"]{1,200})"\s*:/i.exec(prompt)?.[1];
  const title = /\bmain (?:title|topic)\s*(?:is|:)?\s*"?([^",.\n]{1,200})/i.exec(prompt)?.[1];
  return (key ?? title)?.trim() || undefined;
}

function outlineAnswer(prompt: string, malformedTry: number | undefined): Record<string, unknown> {
  const main =
    field(prompt, 'Main topic') ??
    clientMainTopic(prompt) ??
    prompt.replace(/\s+/g, ' ').slice(0, 60).trim();
  const key = main.toLowerCase();
  if (malformedTry !== undefined) {
    const broken = [
      { [key]: '```json\n[{"title": "Unfinished' },
      { [key]: [{ title: '', subtopics: [] }] },
      { answer: 'I could not produce an outline.' },
    ];
    return broken[(malformedTry - 1) % broken.length]!;
  }
  const count =
    Number(
      field(prompt, 'Number of topics') ?? /\bstrict (\d{1,2}) topics\b/i.exec(prompt)?.[1] ?? 5,
    ) || 5;
  // CourseGen's own prompt lists them on a line; the original client's says "should Strictly
  // include these topics :- A, B." in the middle of its sentence.
  const originalClientTopics = /include these topics\s*:-\s*([^\n]*?)\.\s/i.exec(prompt)?.[1];
  const memberTopics = (
    field(prompt, 'Topics to include') ??
    originalClientTopics?.replaceAll(',', ';') ??
    ''
  )
    .split(';')
    .map((topic) => topic.trim())
    .filter(Boolean);
  const subtopicCount = Number(field(prompt, 'Sub-topics per topic') ?? 2) || 2;
  const rewrite = rewriteOutline(prompt, count);
  if (rewrite) return { [key]: rewrite };
  // The material's planned topics (ADR 0058): titled after their sections, lessons as planned.
  const planned = listAfter(prompt, 'Planned topics');
  if (planned.length > 0) {
    const limit = Number(field(prompt, 'Most topics in all') ?? count) || count;
    return { [key]: plannedOutline(planned, memberTopics, limit) };
  }
  // A long section's later parts ("Heading (part 2)") are the same topic.
  const headings = listAfter(prompt, 'Document sections')
    .map((line) => line.replace(/\s*\((pages?) [^)]*\)$/, ''))
    .filter((heading) => !/\(part \d+\)$/.test(heading));
  if (headings.length > 0) {
    const limit = Number(field(prompt, 'Most topics in all') ?? count) || count;
    return { [key]: materialOutline(headings, count, memberTopics, limit) };
  }
  const phrases = phrasesOf(prompt);
  return {
    [key]: phrases
      ? localizedOutline(main, count, memberTopics, subtopicCount, phrases)
      : mockOutline(main, count, memberTopics, subtopicCount),
  };
}

/** The numbered lines ("1. ...") after a `Label:` line of the prompt, without their numbers. */
function listAfter(prompt: string, label: string): string[] {
  const lines = prompt.split('\n');
  const start = lines.findIndex((line) => line.trim() === `${label}:`);
  if (start < 0) return [];
  const items: string[] = [];
  for (const line of lines.slice(start + 1)) {
    const match = /^\d+\.\s+(.*)$/.exec(line.trim());
    if (!match) break;
    items.push(match[1]!.trim());
  }
  return items;
}

const blankLesson = (title: string) => ({ title, theory: '', youtube: '', image: '', done: false });

/**
 * An outline from the member's material (ADR 0032): one topic per section heading, in the
 * document's order (at most `count`), with lessons named after it, so the demo visibly follows
 * the document; then the member's own topics while there are fewer than `limit` (ADR 0047).
 */
function materialOutline(headings: string[], count: number, memberTopics: string[], limit: number) {
  const topics = headings.slice(0, count).map((heading) => ({
    title: heading,
    subtopics: [blankLesson(`Understanding ${heading}`), blankLesson(`${heading}: Key Points`)],
  }));
  for (const member of memberTopics) {
    if (topics.length >= limit) break;
    if (topics.some((topic) => topic.title.toLowerCase() === member.toLowerCase())) continue;
    topics.push({
      title: member,
      subtopics: [blankLesson(`Understanding ${member}`), blankLesson(`${member} by Example`)],
    });
  }
  return topics;
}

/** The planned topics ("Pages 3–4 | lesson | lesson"), then the member's while there is room. */
function plannedOutline(planned: string[], memberTopics: string[], limit: number) {
  const topics = planned.map((line) => {
    const lessons = line.split(' | ').slice(1);
    const first = lessons[0]!.split('; ')[0]!;
    const last = lessons[lessons.length - 1]!.split('; ').pop()!;
    return {
      title: first === last ? first : `From ${first} to ${last}`,
      subtopics: lessons.map(blankLesson),
    };
  });
  for (const member of memberTopics) {
    if (topics.length >= limit) break;
    topics.push({
      title: member,
      subtopics: [blankLesson(`Understanding ${member}`), blankLesson(`${member} by Example`)],
    });
  }
  return topics;
}

/**
 * "Rewrite the outline": the current outline (from the prompt) with the member's instruction
 * visibly applied: each topic gains a lesson named after it ("Topic: instruction"), so a test or
 * a person trying the demo sees the rewrite took the instruction.
 */
function rewriteOutline(prompt: string, count: number) {
  const instruction = field(prompt, 'Instruction');
  const current = listAfter(prompt, 'Current outline');
  if (!instruction || current.length === 0) return undefined;
  return current.slice(0, count).map((line) => {
    const at = line.lastIndexOf(' | ');
    const title = at < 0 ? line : line.slice(0, at);
    const lessons =
      at < 0
        ? []
        : line
            .slice(at + 3)
            .split('; ')
            .filter(Boolean);
    const added = `${title}: ${instruction}`.slice(0, 190);
    return {
      title,
      subtopics: [...lessons.slice(0, 3), added].map(blankLesson),
    };
  });
}

/** The passages of a prompt's `Source passages:`, each "[n] Heading (pages)" then its text. */
function sourcePassages(prompt: string): { source: string; text: string }[] {
  const lines = prompt.split('\n');
  const start = lines.findIndex((line) => line.trim() === 'Source passages:');
  if (start < 0) return [];
  const passages: { source: string; text: string }[] = [];
  for (let at = start + 1; at < lines.length; at += 1) {
    const head = /^\[\d+\]\s+(.*)$/.exec(lines[at]!.trim());
    if (head) {
      passages.push({ source: head[1]!, text: (lines[at + 1] ?? '').trim() });
      at += 1;
    } else if (lines[at]!.trim()) break;
  }
  return passages;
}

/** A lesson written from the member's passages: it quotes the material and names where from. */
function materialLesson(subject: string, main: string, passage: { source: string; text: string }) {
  const opening = passage.text
    .split(/(?<=[.!?])\s+/)
    .slice(0, 2)
    .join(' ')
    .slice(0, 300);
  return [
    `## ${subject}`,
    '',
    `Your material (${passage.source}) says: "${opening}"`,
    '',
    `This lesson of ${main} explains that passage step by step.`,
    '',
    '### Key ideas',
    '',
    `- What the material says about ${subject}`,
    '- The terms it uses, explained',
    '',
    '### Summary',
    '',
    `Read the passage again with these ideas in mind, then move on.`,
  ].join('\n');
}

export function mockMarkdownLesson(prompt: string): string {
  const main = field(prompt, 'Main topic') ?? 'this course';
  const subject =
    field(prompt, 'Sub-topic') ?? (prompt.replace(/\s+/g, ' ').trim().slice(0, 120) || 'the topic');
  const instruction = field(prompt, 'Instruction');
  if (instruction) return rewrittenLesson(subject, main, instruction);
  const [passage] = sourcePassages(prompt);
  if (passage) return materialLesson(subject, main, passage);
  const phrases = phrasesOf(prompt);
  if (phrases) return localizedLesson(subject, main, phrases);
  if (/^Transcript:/im.test(prompt)) {
    return [
      `## ${subject}: a summary`,
      '',
      `This summary of a video lesson explains **${subject}** as part of ${main}.`,
      '',
      '- The main idea, in plain words',
      '- One example from the video',
      '- What to remember',
    ].join('\n');
  }
  return [
    `## Understanding ${subject}`,
    '',
    `**${subject}** is an essential part of ${main}. This lesson introduces the key terms, shows a worked example and ends with a short summary.`,
    '',
    '### Key ideas',
    '',
    `- What ${subject} is and where it is used`,
    '- The vocabulary you will meet again in later lessons',
    '- Common mistakes and how to avoid them',
    '',
    '### Example',
    '',
    '```',
    `example("${subject.slice(0, 40).replace(/"/g, "'")}")`,
    '```',
    '',
    '### Summary',
    '',
    `You now know the essentials of ${subject}. Practise them before moving on.`,
  ].join('\n');
}

/** How a lesson re-written "simpler" begins (the browser test looks for it). */
export const MOCK_SIMPLER_START = 'In simple terms';

/** A lesson regenerated with the member's instruction (app/services/lesson-regeneration.server.ts). */
function rewrittenLesson(subject: string, main: string, instruction: string): string {
  const simpler = /simpl/i.test(instruction);
  const examples = /example/i.test(instruction);
  return [
    simpler
      ? `${MOCK_SIMPLER_START}, **${subject}** is one small idea of ${main}, explained without jargon.`
      : `**${subject}**, written again as you asked: "${instruction.slice(0, 80)}".`,
    '',
    `## ${subject}, again`,
    '',
    `- What ${subject} means, in one sentence`,
    `- Where you meet it in ${main}`,
    ...(examples
      ? [
          '',
          '### More examples',
          '',
          `1. A first example of ${subject}`,
          `2. A second one`,
          `3. A third one`,
        ]
      : []),
    '',
    '### Summary',
    '',
    `That is ${subject}: practise it once, then move on.`,
  ].join('\n');
}

function localizedLesson(subject: string, main: string, phrases: LanguagePhrases): string {
  const explains = phrases.explains.replace('{s}', `**${subject}**`);
  return [
    `## ${subject}`,
    '',
    `${explains} ${phrases.outline}`,
    '',
    `### ${phrases.keyIdeas}`,
    '',
    `- ${subject}`,
    `- ${main}`,
    '',
    `### ${phrases.example}`,
    '',
    '```',
    `example("${subject.slice(0, 40).replace(/"/g, "'")}")`,
    '```',
    '',
    `### ${phrases.summary}`,
    '',
    phrases.explains.replace('{s}', subject),
  ].join('\n');
}

/**
 * The status a call fails with under MOCK_AI_FAIL_FIRST (the first N calls of each prompt,
 * optionally only prompts containing MOCK_AI_FAIL_MATCH), or undefined when it succeeds.
 */
/** The headers of a mock failure: a 429 says how long to wait, as the real APIs do. */
export function failureHeaders(
  status: number,
  knobs: MockKnobs,
): Record<string, string> | undefined {
  if (status !== 429) return undefined;
  return {
    'retry-after-ms': String(knobs.aiRetryAfterMs),
    'retry-after': String(Math.ceil(knobs.aiRetryAfterMs / 1000)),
  };
}

/** One line per AI request in MOCK_AI_CALL_LOG, whichever process serves it. */
export function logMockCall(knobs: MockKnobs) {
  if (knobs.aiCallLog) fs.appendFileSync(knobs.aiCallLog, `${Date.now()} ${process.pid}\n`);
}

export function mockFailureStatus(prompt: string, knobs: MockKnobs): 429 | 500 | 529 | undefined {
  const affected = !knobs.aiFailMatch || prompt.includes(knobs.aiFailMatch);
  if (knobs.aiFailFirst === 0 || !affected) return undefined;
  return nextCall('fail', prompt, knobs.version) <= knobs.aiFailFirst
    ? knobs.aiFailStatus
    : undefined;
}

/** A request as every mock sees it, whatever its wire format. */
export interface MockAiRequest {
  system: string;
  messages: { role: string; content: string }[];
  /** The tool the request forces, if any. */
  tool?: string;
}

export function lastUserText(request: MockAiRequest): string {
  return [...request.messages].reverse().find((message) => message.role === 'user')?.content ?? '';
}

/**
 * The input of a forced tool call. The outline honours MOCK_AI_MALFORMED; a tool the mock
 * does not know gets an empty object (which the product refuses as unusable).
 */
export function mockToolInput(request: MockAiRequest, knobs: MockKnobs): unknown {
  const prompt = lastUserText(request);
  const answers: Record<string, (prompt: string, malformedTry: number | undefined) => unknown> = {
    [OUTLINE_TOOL]: outlineAnswer,
    [QUIZ_TOOL]: quizAnswer,
    [FLASHCARDS_TOOL]: flashcardsAnswer,
  };
  const answer = request.tool ? answers[request.tool] : undefined;
  if (!answer) return {};
  let malformedTry: number | undefined;
  if (knobs.aiMalformed > 0) {
    const call = nextCall('malformed', prompt, knobs.version);
    if (call <= knobs.aiMalformed) malformedTry = call;
  }
  return answer(prompt, malformedTry);
}

export const FLASHCARDS_TOOL = 'lesson_flashcards';
/** How the question of the mock's first card of every lesson begins (the browser test reads it). */
const MOCK_CARD_QUESTION_START = 'Which course teaches';

/** The first `words` words of a title: a mock answer stays short, as the product requires. */
const firstWords = (text: string, words: number) => text.split(/\s+/).slice(0, words).join(' ');

/**
 * A lesson's deck: three cards about the prompt's lesson, each one question with a short answer
 * (what the lessons of `mockMarkdownLesson` say). Under MOCK_AI_MALFORMED, decks the product
 * must refuse: no JSON, an answer that is a list of facts, too few cards.
 */
function flashcardsAnswer(prompt: string, malformedTry: number | undefined): unknown {
  const main = firstWords(field(prompt, 'Main topic') ?? 'this course', 8);
  const lesson = firstWords(field(prompt, 'Lesson') ?? main, 12);
  if (malformedTry !== undefined) {
    const broken = [
      { cards: '```json\n[{"question": "Unfinished' },
      {
        cards: [
          { question: `What is ${lesson}?`, answer: 'A topic; a skill; a list of facts; more' },
          { question: `Why learn ${lesson}?`, answer: 'It is useful. It is also fun to learn.' },
          { question: `Where is ${lesson} used?`, answer: main },
        ],
      },
      { cards: [{ question: `What is ${lesson}?`, answer: main }] },
    ];
    return broken[(malformedTry - 1) % broken.length];
  }
  const grounded = materialCards(prompt, lesson);
  if (grounded) return { cards: grounded };
  return {
    cards: [
      { question: `${MOCK_CARD_QUESTION_START} "${lesson}"?`, answer: main },
      {
        question: `What does the lesson "${lesson}" end with?`,
        answer: 'A short summary',
      },
      {
        question: `What should you do before moving on from "${lesson}"?`,
        answer: 'Practise the essentials',
      },
    ],
  };
}

/**
 * Cards from the member's material (ADR 0058), as the real model writes them from a lesson that
 * quotes it: where the lesson's passage is, what it says first, and the longest term it uses.
 * Undefined when the lesson text quotes no material (mockMarkdownLesson's `materialLesson`).
 */
function materialCards(prompt: string, lesson: string) {
  const quoted = /Your material \((.+?)\) says: "([^"]+)"/.exec(prompt);
  if (!quoted) return undefined;
  const [, source, passage] = quoted;
  const sentence = passage!.split(/(?<=[.!?])\s+/)[0]!;
  const term = [...(sentence.match(/\p{L}{4,}/gu) ?? [])].sort((a, b) => b.length - a.length)[0];
  return [
    // "In …": a numbered heading ("1. Introduction") alone reads as a list item, which a card
    // must not answer with.
    {
      question: `Where in your material is "${lesson}" taught?`,
      answer: `In ${firstWords(source!, 12)}`,
    },
    {
      question: `What does your material say first about "${lesson}"?`,
      answer: `${firstWords(sentence.replace(/[.!?]$/, ''), 12)}`,
    },
    {
      question: `Which term of your material does "${lesson}" explain?`,
      answer: term ?? firstWords(lesson, 6),
    },
  ];
}

export const QUIZ_TOOL = 'course_quiz';
/** How every right option of the mock's quizzes begins (the browser test answers with it). */
export const MOCK_RIGHT_OPTION_START = 'It is taught in';

/**
 * A quiz about the prompt's lessons: one question per lesson in turn, four options, the right
 * one at a different place each time, and a one-line explanation.
 */
function quizAnswer(prompt: string, malformedTry: number | undefined): unknown {
  if (malformedTry !== undefined) {
    const broken = [
      { questions: '```json\n[{"question": "Unfinished' },
      { questions: [{ question: 'Which?', options: ['Only one'], answer: 3, explanation: '' }] },
      { answer: 'I could not write a quiz.' },
    ];
    return broken[(malformedTry - 1) % broken.length];
  }
  const main = field(prompt, 'Main topic') ?? 'this course';
  const asked = field(prompt, 'Quiz on topic') ?? main;
  // The final exam asks about the whole course.
  const topic = /final exam/i.test(asked) ? main : asked;
  const lessons = (field(prompt, 'Lessons') ?? topic)
    .split(';')
    .map((lesson) => lesson.trim())
    .filter(Boolean);
  const count = Number(field(prompt, 'Number of questions') ?? 3) || 3;
  const grounded = materialQuiz(sourcePassages(prompt), count);
  if (grounded) return { questions: grounded };
  return {
    questions: Array.from({ length: count }, (_, i) => {
      const lesson = lessons[i % lessons.length] ?? topic;
      const round = Math.floor(i / Math.max(lessons.length, 1));
      const wrong = [
        `It has nothing to do with ${main}`,
        `It is only needed once ${main} is finished`,
        `It replaces everything else in ${main}`,
      ];
      const options = [...wrong];
      const answer = i % 4;
      options.splice(answer, 0, `${MOCK_RIGHT_OPTION_START} ${topic}, part of ${main}`);
      return {
        question: `${round ? `(${round + 1}) ` : ''}What is true of "${lesson}"?`,
        options,
        answer,
        explanation: `"${lesson}" is a lesson of ${topic}, which builds up ${main}.`,
      };
    }),
  };
}

/** A passage's whole sentences of three words or more, each cut to an option's length. */
function statements(text: string): string[] {
  const sentences = text.split(/(?<=[.!?])\s+/).map((sentence) => sentence.trim());
  // The prompt's budget may cut a passage mid-sentence: that fragment is not a statement.
  if (sentences.length > 1 && !/[.!?]["'”)\]]*$/.test(sentences[sentences.length - 1]!))
    sentences.pop();
  const whole = sentences
    .filter((sentence) => sentence.split(/\s+/).length >= 3)
    .map((sentence) =>
      sentence.length <= 200 ? sentence : `${sentence.slice(0, 200).replace(/\s+\S*$/, '')}…`,
    );
  return [...new Map(whole.map((sentence) => [sentence.toLowerCase(), sentence])).values()];
}

/**
 * A quiz from the member's material (ADR 0058), as the real model writes one from the passages
 * its prompt carries: each question asks what one section says, in turn; its right option is a
 * sentence of that section, its wrong ones what other sections say (or, with too few, plain
 * misreadings). Undefined when the prompt carries no passage.
 */
function materialQuiz(passages: { source: string; text: string }[], count: number) {
  const sections = passages
    .map((passage) => {
      const [, heading, pages] = /^(.*?)(?:\s+\((pages? [^)]*)\))?$/.exec(passage.source)!;
      const where = `"${firstWords(heading!, 16)}"${pages ? ` (${pages})` : ''}`;
      return { heading: firstWords(heading!, 16), where, statements: statements(passage.text) };
    })
    .filter((section) => section.statements.length > 0);
  if (sections.length === 0) return undefined;
  return Array.from({ length: count }, (_, i) => {
    const section = sections[i % sections.length]!;
    const round = Math.floor(i / sections.length);
    const right = section.statements[round % section.statements.length]!;
    const others = sections.filter((other) => other !== section).map((o) => o.statements[0]!);
    const turn = i % Math.max(others.length, 1);
    const candidates = [
      ...others.slice(turn),
      ...others.slice(0, turn),
      `It says nothing about ${section.heading}`,
      `It leaves ${section.heading} to another document`,
      `It names ${section.heading} only in its contents`,
    ];
    const options: string[] = [];
    for (const option of candidates) {
      const taken = [right, ...options].some((o) => o.toLowerCase() === option.toLowerCase());
      if (!taken && options.length < 3) options.push(option);
    }
    const answer = i % 4;
    options.splice(answer, 0, right);
    return {
      question: `${round ? `(${round + 1}) ` : ''}What does your material say in ${section.where}?`,
      options,
      answer,
      explanation: `Your material says so in ${section.where}.`,
    };
  });
}

/** The text answer to a request that forces no tool. */
export function mockTextAnswer(request: MockAiRequest): string {
  if (request.system.startsWith(TUTOR_SYSTEM_START)) return mockTutorAnswer(request);
  return mockMarkdownLesson(lastUserText(request));
}

/** How the tutor's system prompt begins (app/services/tutor.server.ts). */
const TUTOR_SYSTEM_START = 'You are the tutor of one lesson';
const COMMON_WORDS = new Set(
  'what whats does this that with have about your from they them when where which would could should there their please tell know like into just than then also more some much many very'.split(
    ' ',
  ),
);

/**
 * The tutor's answer: about the lesson's sub-topic when the question shares a word with the
 * lesson or the outline in the system prompt, else a polite refusal, as the prompt asks.
 */
export function mockTutorAnswer(request: MockAiRequest): string {
  const lesson = field(request.system, 'Lesson') ?? 'this lesson';
  const course = field(request.system, 'Course') ?? 'this course';
  const grounding = request.system.toLowerCase();
  const words =
    lastUserText(request)
      .toLowerCase()
      .match(/[a-z]{4,}/g) ?? [];
  const related = words.some((word) => !COMMON_WORDS.has(word) && grounding.includes(word));
  if (!related)
    return `I can only help with **${lesson}** and the rest of the ${course} course. Please ask me something about this lesson.`;
  return [
    `Good question. In **${lesson}**, part of ${course}, it comes down to three things:`,
    '',
    `1. What ${lesson} is and where it is used.`,
    '2. The key terms the lesson introduces, which later lessons use again.',
    '3. The worked example, one step at a time.',
    '',
    `Try the lesson's example yourself, then ask me about any step of ${lesson} that is still unclear.`,
  ].join('\n');
}

/** Splits an answer into the small pieces a streaming model sends (a few words each). */
export function streamPieces(text: string): string[] {
  return (
    text.match(/\S+\s*|\s+/g)?.reduce<string[]>((pieces, word, i) => {
      if (i % 3 === 0) pieces.push(word);
      else pieces[pieces.length - 1] += word;
      return pieces;
    }, []) ?? []
  );
}

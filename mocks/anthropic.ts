import { http, HttpResponse, delay } from 'msw';
import { nextCall, readKnobs } from './knobs';

/**
 * Anthropic Messages API (POST /v1/messages), answered in its real wire format
 * so the real `@anthropic-ai/sdk` code runs. Requests that force a tool get a
 * `tool_use` block (the course outline tool is answered with a plausible,
 * topic-specific outline); others get Markdown text: a lesson on the prompt's
 * sub-topic, or a summary when the prompt carries a transcript.
 *
 * Latency, failures (429/500/529) and malformed outlines are set by the knobs
 * in `mocks/knobs.ts`.
 */
export const ANTHROPIC_URL = 'https://api.anthropic.com';
export const OUTLINE_TOOL = 'course_outline';

interface MessagesRequest {
  model: string;
  max_tokens: number;
  system?: string | { type: 'text'; text: string }[];
  messages: { role: string; content: string | { type: string; text?: string }[] }[];
  tools?: { name: string; input_schema: unknown }[];
  tool_choice?: { type: string; name?: string };
}

export function lastUserText(body: MessagesRequest): string {
  const last = [...body.messages].reverse().find((message) => message.role === 'user');
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  return last.content.map((part) => part.text ?? '').join('\n');
}

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

function outlineAnswer(prompt: string, malformedTry: number | undefined): Record<string, unknown> {
  const main = field(prompt, 'Main topic') ?? prompt.replace(/\s+/g, ' ').slice(0, 60).trim();
  const key = main.toLowerCase();
  if (malformedTry !== undefined) {
    const broken = [
      { [key]: '```json\n[{"title": "Unfinished' },
      { [key]: [{ title: '', subtopics: [] }] },
      { answer: 'I could not produce an outline.' },
    ];
    return broken[(malformedTry - 1) % broken.length]!;
  }
  const count = Number(field(prompt, 'Number of topics') ?? 5) || 5;
  const memberTopics = (field(prompt, 'Topics to include') ?? '')
    .split(';')
    .map((topic) => topic.trim())
    .filter(Boolean);
  const subtopicCount = Number(field(prompt, 'Sub-topics per topic') ?? 2) || 2;
  return { [key]: mockOutline(main, count, memberTopics, subtopicCount) };
}

export function mockMarkdownLesson(prompt: string): string {
  const main = field(prompt, 'Main topic') ?? 'this course';
  const subject =
    field(prompt, 'Sub-topic') ?? (prompt.replace(/\s+/g, ' ').trim().slice(0, 120) || 'the topic');
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

function usage(text: string) {
  return { input_tokens: 50, output_tokens: Math.ceil(text.length / 4) };
}

const ERROR_TYPES = { 429: 'rate_limit_error', 500: 'api_error', 529: 'overloaded_error' };

export const anthropicHandlers = [
  http.post(`${ANTHROPIC_URL}/v1/messages`, async ({ request }) => {
    const knobs = readKnobs();
    if (knobs.aiLatencyMs > 0) await delay(knobs.aiLatencyMs);
    const body = (await request.json()) as MessagesRequest;
    const prompt = lastUserText(body);
    const forcedTool = body.tool_choice?.type === 'tool' ? body.tool_choice.name : undefined;
    const id = `msg_mock_${Math.random().toString(36).slice(2, 12)}`;

    const affected = !knobs.aiFailMatch || prompt.includes(knobs.aiFailMatch);
    if (knobs.aiFailFirst > 0 && affected) {
      const call = nextCall('fail', prompt, knobs.version);
      if (call <= knobs.aiFailFirst) {
        const status = knobs.aiFailStatus;
        return HttpResponse.json(
          { type: 'error', error: { type: ERROR_TYPES[status], message: 'Mock failure' } },
          { status, headers: status === 429 ? { 'retry-after': '1' } : undefined },
        );
      }
    }

    if (forcedTool) {
      let malformedTry: number | undefined;
      if (forcedTool === OUTLINE_TOOL && knobs.aiMalformed > 0) {
        const call = nextCall('malformed', prompt, knobs.version);
        if (call <= knobs.aiMalformed) malformedTry = call;
      }
      // The outline is the only tool the product forces; any other gets an empty answer.
      const input = forcedTool === OUTLINE_TOOL ? outlineAnswer(prompt, malformedTry) : {};
      return HttpResponse.json({
        id,
        type: 'message',
        role: 'assistant',
        model: body.model,
        content: [{ type: 'tool_use', id: `toolu_${id}`, name: forcedTool, input }],
        stop_reason: 'tool_use',
        stop_sequence: null,
        usage: usage(JSON.stringify(input)),
      });
    }
    const text = mockMarkdownLesson(prompt);
    return HttpResponse.json({
      id,
      type: 'message',
      role: 'assistant',
      model: body.model,
      content: [{ type: 'text', text }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: usage(text),
    });
  }),
];

import { http, HttpResponse, delay } from 'msw';

/**
 * Anthropic Messages API (POST /v1/messages), answered in its real wire format
 * so the real `@anthropic-ai/sdk` code runs. Requests that force a tool get a
 * `tool_use` block built by `toolAnswer`; others get Markdown text.
 *
 * Knobs (environment, read per request so tests can change them):
 * - MOCK_AI_LATENCY_MS: wait this long before answering.
 */
export const ANTHROPIC_URL = 'https://api.anthropic.com';

interface MessagesRequest {
  model: string;
  max_tokens: number;
  system?: string | { type: 'text'; text: string }[];
  messages: { role: string; content: string | { type: string; text?: string }[] }[];
  tools?: { name: string; input_schema: unknown }[];
  tool_choice?: { type: string; name?: string };
}

export type ToolAnswerer = (toolName: string, prompt: string) => Record<string, unknown>;
let toolAnswer: ToolAnswerer = () => ({});

/** Later features register how the mock fills in each tool they force. */
export function setAnthropicToolAnswerer(answerer: ToolAnswerer) {
  toolAnswer = answerer;
}

export function lastUserText(body: MessagesRequest): string {
  const last = [...body.messages].reverse().find((message) => message.role === 'user');
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  return last.content.map((part) => part.text ?? '').join('\n');
}

export function mockMarkdownLesson(prompt: string): string {
  const subject = prompt.replace(/\s+/g, ' ').trim().slice(0, 120) || 'this topic';
  return [
    `## Understanding ${subject}`,
    '',
    `${subject} is easiest to learn from its core ideas outward. This lesson introduces the key terms, shows a worked example and ends with a short summary.`,
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
    `example("${subject.slice(0, 40)}")`,
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

export const anthropicHandlers = [
  http.post(`${ANTHROPIC_URL}/v1/messages`, async ({ request }) => {
    const latency = Number(process.env.MOCK_AI_LATENCY_MS ?? 0);
    if (latency > 0) await delay(latency);
    const body = (await request.json()) as MessagesRequest;
    const prompt = lastUserText(body);
    const forcedTool = body.tool_choice?.type === 'tool' ? body.tool_choice.name : undefined;
    const id = `msg_mock_${Math.random().toString(36).slice(2, 12)}`;
    if (forcedTool) {
      const input = toolAnswer(forcedTool, prompt);
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

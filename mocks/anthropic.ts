import { http, HttpResponse, delay } from 'msw';
import {
  failureHeaders,
  lastUserText,
  logMockCall,
  mockFailureStatus,
  mockTextAnswer,
  mockToolInput,
  streamPieces,
  type MockAiRequest,
} from './ai-answers';
import { readKnobs, type MockKnobs } from './knobs';

/**
 * Anthropic Messages API (POST /v1/messages), answered in its real wire format
 * so the real `@anthropic-ai/sdk` code runs: a `tool_use` block when a tool is
 * forced, text otherwise, and with `stream: true` the server-sent events the API
 * sends (message_start, content_block_delta per few words, message_stop). What
 * the model says comes from `ai-answers.ts`, shared with the other AI vendors.
 *
 * Latency (before the first token), streaming pace, failures (429/500/529) and
 * malformed outlines are set by the knobs in `mocks/knobs.ts`.
 */
const ANTHROPIC_URL = 'https://api.anthropic.com';

interface MessagesRequest {
  model: string;
  max_tokens: number;
  stream?: boolean;
  system?: string | { type: 'text'; text: string }[];
  messages: { role: string; content: string | { type: string; text?: string }[] }[];
  tools?: { name: string; input_schema: unknown }[];
  tool_choice?: { type: string; name?: string };
}

const textOf = (content: string | { type: string; text?: string }[] | undefined): string =>
  typeof content === 'string' ? content : (content ?? []).map((part) => part.text ?? '').join('\n');

function asMockRequest(body: MessagesRequest): MockAiRequest {
  return {
    system: textOf(body.system),
    messages: body.messages.map((message) => ({
      role: message.role,
      content: textOf(message.content),
    })),
    tool: body.tool_choice?.type === 'tool' ? body.tool_choice.name : undefined,
  };
}

function usage(text: string) {
  return { input_tokens: 50, output_tokens: Math.ceil(text.length / 4) };
}

const ERROR_TYPES = { 429: 'rate_limit_error', 500: 'api_error', 529: 'overloaded_error' };

const message = (id: string, model: string) => ({
  id,
  type: 'message',
  role: 'assistant',
  model,
  stop_sequence: null,
});

/** The text as the API streams it: one server-sent event per few words, at the knobs' pace. */
function eventStream(id: string, model: string, text: string, knobs: MockKnobs): Response {
  const encoder = new TextEncoder();
  const event = (type: string, data: Record<string, unknown>) =>
    encoder.encode(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(
        event('message_start', {
          message: {
            ...message(id, model),
            content: [],
            stop_reason: null,
            usage: { input_tokens: 50, output_tokens: 1 },
          },
        }),
      );
      controller.enqueue(
        event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
      );
      for (const [i, piece] of streamPieces(text).entries()) {
        if (i > 0 && knobs.aiStreamChunkMs > 0) await delay(knobs.aiStreamChunkMs);
        controller.enqueue(
          event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: piece } }),
        );
      }
      controller.enqueue(event('content_block_stop', { index: 0 }));
      controller.enqueue(
        event('message_delta', {
          delta: { stop_reason: 'end_turn', stop_sequence: null },
          usage: { output_tokens: usage(text).output_tokens },
        }),
      );
      controller.enqueue(event('message_stop', {}));
      controller.close();
    },
  });
  return new Response(body, {
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
  });
}

export const anthropicHandlers = [
  http.post(`${ANTHROPIC_URL}/v1/messages`, async ({ request }) => {
    const knobs = readKnobs();
    logMockCall(knobs);
    if (knobs.aiLatencyMs > 0) await delay(knobs.aiLatencyMs);
    const body = (await request.json()) as MessagesRequest;
    const asked = asMockRequest(body);
    const id = `msg_mock_${Math.random().toString(36).slice(2, 12)}`;

    const status = mockFailureStatus(lastUserText(asked), knobs);
    if (status) {
      return HttpResponse.json(
        { type: 'error', error: { type: ERROR_TYPES[status], message: 'Mock failure' } },
        { status, headers: failureHeaders(status, knobs) },
      );
    }

    if (asked.tool) {
      const input = mockToolInput(asked, knobs);
      return HttpResponse.json({
        ...message(id, body.model),
        content: [{ type: 'tool_use', id: `toolu_${id}`, name: asked.tool, input }],
        stop_reason: 'tool_use',
        usage: usage(JSON.stringify(input)),
      });
    }
    const text = mockTextAnswer(asked);
    if (body.stream) return eventStream(id, body.model, text, knobs);
    return HttpResponse.json({
      ...message(id, body.model),
      content: [{ type: 'text', text }],
      stop_reason: 'end_turn',
      usage: usage(text),
    });
  }),
];

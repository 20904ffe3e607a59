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
 * OpenAI Chat Completions (POST /v1/chat/completions), answered in its real wire format so the
 * real `openai` SDK code runs: a function `tool_calls` entry (its arguments as JSON text) when
 * a tool is forced, text otherwise, and with `stream: true` the server-sent `data:` chunks
 * ending with `data: [DONE]`. What the model says comes from `ai-answers.ts`, so a course
 * written through this provider reads like one written through Anthropic's mock.
 *
 * The knobs in `mocks/knobs.ts` apply as they do to Anthropic's mock; an overload (529 there)
 * is OpenAI's 503.
 */
const OPENAI_URL = 'https://api.openai.com';

type Content = string | { type: string; text?: string }[] | null | undefined;

interface ChatRequest {
  model: string;
  stream?: boolean;
  messages: { role: string; content?: Content }[];
  tools?: { type: 'function'; function: { name: string } }[];
  tool_choice?: 'auto' | 'none' | 'required' | { type: 'function'; function: { name: string } };
}

const textOf = (content: Content): string =>
  typeof content === 'string' ? content : (content ?? []).map((part) => part.text ?? '').join('\n');

function asMockRequest(body: ChatRequest): MockAiRequest {
  const choice = body.tool_choice;
  return {
    system: body.messages
      .filter((message) => message.role === 'system' || message.role === 'developer')
      .map((message) => textOf(message.content))
      .join('\n'),
    messages: body.messages
      .filter((message) => message.role === 'user' || message.role === 'assistant')
      .map((message) => ({ role: message.role, content: textOf(message.content) })),
    tool:
      typeof choice === 'object'
        ? choice.function.name
        : choice === 'required'
          ? body.tools?.[0]?.function.name
          : undefined,
  };
}

const usage = (text: string) => {
  const completion = Math.ceil(text.length / 4);
  return { prompt_tokens: 50, completion_tokens: completion, total_tokens: 50 + completion };
};

const ERRORS = {
  429: {
    status: 429,
    type: 'requests',
    code: 'rate_limit_exceeded',
    message: 'Rate limit reached',
  },
  500: { status: 500, type: 'server_error', code: null, message: 'The server had an error' },
  529: { status: 503, type: 'server_error', code: null, message: 'The engine is overloaded' },
} as const;

const envelope = (id: string, model: string, object: string) => ({
  id,
  object,
  created: Math.floor(Date.now() / 1000),
  model,
  system_fingerprint: 'fp_mock',
});

/** The text as the API streams it: one `data:` chunk per few words, then `data: [DONE]`. */
function chunkStream(id: string, model: string, text: string, knobs: MockKnobs): Response {
  const encoder = new TextEncoder();
  const chunk = (delta: Record<string, unknown>, finishReason: string | null) =>
    encoder.encode(
      `data: ${JSON.stringify({
        ...envelope(id, model, 'chat.completion.chunk'),
        choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      })}\n\n`,
    );
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      controller.enqueue(chunk({ role: 'assistant', content: '', refusal: null }, null));
      for (const [i, piece] of streamPieces(text).entries()) {
        if (i > 0 && knobs.aiStreamChunkMs > 0) await delay(knobs.aiStreamChunkMs);
        controller.enqueue(chunk({ content: piece }, null));
      }
      controller.enqueue(chunk({}, 'stop'));
      controller.enqueue(encoder.encode('data: [DONE]\n\n'));
      controller.close();
    },
  });
  return new Response(body, {
    headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
  });
}

export const openaiHandlers = [
  http.post(`${OPENAI_URL}/v1/chat/completions`, async ({ request }) => {
    const knobs = readKnobs();
    logMockCall(knobs);
    if (knobs.aiLatencyMs > 0) await delay(knobs.aiLatencyMs);
    const body = (await request.json()) as ChatRequest;
    const asked = asMockRequest(body);
    const id = `chatcmpl-mock${Math.random().toString(36).slice(2, 12)}`;

    const failure = mockFailureStatus(lastUserText(asked), knobs);
    if (failure) {
      const { status, ...error } = ERRORS[failure];
      return HttpResponse.json(
        { error: { ...error, param: null } },
        { status, headers: failureHeaders(status, knobs) },
      );
    }

    if (asked.tool) {
      const input = JSON.stringify(mockToolInput(asked, knobs));
      return HttpResponse.json({
        ...envelope(id, body.model, 'chat.completion'),
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: null,
              refusal: null,
              tool_calls: [
                {
                  id: `call_${id.slice(-12)}`,
                  type: 'function',
                  function: { name: asked.tool, arguments: input },
                },
              ],
            },
            logprobs: null,
            // A forced function call ends with 'stop', as the real API does.
            finish_reason: 'stop',
          },
        ],
        usage: usage(input),
      });
    }
    const text = mockTextAnswer(asked);
    if (body.stream) return chunkStream(id, body.model, text, knobs);
    return HttpResponse.json({
      ...envelope(id, body.model, 'chat.completion'),
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: text, refusal: null },
          logprobs: null,
          finish_reason: 'stop',
        },
      ],
      usage: usage(text),
    });
  }),
];

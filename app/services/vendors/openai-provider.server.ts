import type OpenAI from 'openai';
// The error class alone (a small module): failures are told apart before the SDK is ever loaded.
import { APIError } from 'openai/error';
import { env } from '~/utils/env.server';
import { failureFromStatus, type AiProvider, type AiTextRequest } from './ai-provider.server';
import { modelFor } from './ai-models.server';
import { recordAiTokens } from '~/utils/metrics.server';

/**
 * The Chat Completions API through the official `openai` SDK: OpenAI itself, or any server that
 * speaks it (Ollama, vLLM, LM Studio) at OPENAI_BASE_URL. As with Anthropic, the SDK's own
 * retries are off: the job layer (or `ai.server.ts` for a member waiting) retries.
 */
const OPENAI_PUBLIC_URL = 'https://api.openai.com/v1';
const DEFAULT_MAX_TOKENS = 4096;

/** The SDK, loaded on the first call: a process that never calls the AI never holds it. */
let sdk: typeof OpenAI | undefined;
let client: { key: string; openai: OpenAI } | undefined;

async function openai(): Promise<OpenAI> {
  const { OPENAI_API_KEY, OPENAI_BASE_URL, mocked } = env();
  sdk ??= (await import('openai')).default;
  const baseURL = mocked.openai ? OPENAI_PUBLIC_URL : (OPENAI_BASE_URL ?? OPENAI_PUBLIC_URL);
  const key = `${baseURL}|${OPENAI_API_KEY ?? ''}`;
  if (client?.key !== key)
    client = {
      key,
      openai: new sdk({
        // A local server takes any key; the SDK insists on one.
        apiKey: OPENAI_API_KEY ?? 'no-key',
        baseURL,
        timeout: 120_000,
        maxRetries: 0,
      }),
    };
  return client.openai;
}

function params(request: AiTextRequest) {
  const { OPENAI_MODEL, OPENAI_BASE_URL, mocked } = env();
  const maxTokens = request.maxTokens ?? DEFAULT_MAX_TOKENS;
  return {
    model: modelFor(request.purpose, OPENAI_MODEL),
    messages: [
      { role: 'system' as const, content: request.system },
      ...request.messages.map((message) => ({ role: message.role, content: message.content })),
    ],
    // OpenAI's newer models take only max_completion_tokens; local servers know max_tokens.
    ...(OPENAI_BASE_URL && !mocked.openai
      ? { max_tokens: maxTokens }
      : { max_completion_tokens: maxTokens }),
  };
}

/**
 * A tool call's arguments arrive as JSON text: parsed here so every provider hands back the
 * same input; text that is not JSON is returned as it is, for the caller to refuse as unusable.
 */
function parseArguments(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** The tokens the provider counted, for the metrics (ADR 0056). */
function countTokens(
  request: AiTextRequest,
  completion: {
    usage?: { prompt_tokens: number; completion_tokens: number } | null;
  },
) {
  recordAiTokens(
    'openai',
    params(request).model,
    completion.usage?.prompt_tokens ?? 0,
    completion.usage?.completion_tokens ?? 0,
  );
}

export const openaiProvider: AiProvider = {
  name: 'openai',

  async text(request) {
    const completion = await (
      await openai()
    ).chat.completions.create(params(request), {
      signal: request.signal,
    });
    countTokens(request, completion);
    return completion.choices[0]?.message.content ?? '';
  },

  async streamText(request, onText) {
    const stream = await (
      await openai()
    ).chat.completions.create({ ...params(request), stream: true }, { signal: request.signal });
    let text = '';
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta.content;
      if (delta) {
        text += delta;
        onText(delta);
      }
    }
    return text;
  },

  async callTool(request) {
    const completion = await (
      await openai()
    ).chat.completions.create(
      {
        ...params(request),
        tools: [
          {
            type: 'function',
            function: {
              name: request.tool.name,
              description: request.tool.description,
              parameters: request.tool.inputSchema,
            },
          },
        ],
        tool_choice: { type: 'function', function: { name: request.tool.name } },
      },
      { signal: request.signal },
    );
    countTokens(request, completion);
    const message = completion.choices[0]?.message;
    const call = message?.tool_calls?.find(
      (candidate) => candidate.type === 'function' && candidate.function.name === request.tool.name,
    );
    if (call?.type === 'function') return parseArguments(call.function.arguments);
    return message?.content ?? '';
  },

  describeFailure(error) {
    if (!(error instanceof APIError)) return undefined;
    return failureFromStatus(error.status ?? 0, error.headers);
  },
};

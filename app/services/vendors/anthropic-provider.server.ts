import type Anthropic from '@anthropic-ai/sdk';
// The error class alone (a small module): failures are told apart before the SDK is ever loaded.
import { APIError } from '@anthropic-ai/sdk/error';
import { env } from '~/utils/env.server';
import { failureFromStatus, type AiProvider, type AiTextRequest } from './ai-provider.server';
import { modelFor } from './ai-models.server';
import { recordAiTokens } from '~/utils/metrics.server';

/**
 * The Anthropic Messages API through its official SDK. The SDK's own retries are off: the caller
 * retries (a job with backoff, or `ai.server.ts` for a member waiting), so behaviour is the same
 * against the real API and its mock.
 */
const ANTHROPIC_PUBLIC_URL = 'https://api.anthropic.com';
const DEFAULT_MAX_TOKENS = 4096;

/** The SDK, loaded on the first call: a process that never calls the AI never holds it. */
let sdk: typeof Anthropic | undefined;
let client: Anthropic | undefined;

async function anthropic(): Promise<Anthropic> {
  const { ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, mocked } = env();
  sdk ??= (await import('@anthropic-ai/sdk')).default;
  client ??= new sdk({
    apiKey: ANTHROPIC_API_KEY ?? 'demo-mode-key',
    baseURL: mocked.anthropic ? ANTHROPIC_PUBLIC_URL : (ANTHROPIC_BASE_URL ?? ANTHROPIC_PUBLIC_URL),
    timeout: 120_000,
    maxRetries: 0,
  });
  return client;
}

function params(request: AiTextRequest) {
  return {
    model: modelFor(request.purpose, env().ANTHROPIC_MODEL),
    max_tokens: request.maxTokens ?? DEFAULT_MAX_TOKENS,
    system: request.system,
    messages: request.messages,
  };
}

/** The tokens the provider counted, for the metrics (ADR 0056). */
function countTokens(model: string, message: Anthropic.Message) {
  recordAiTokens(
    'anthropic',
    model,
    message.usage?.input_tokens ?? 0,
    message.usage?.output_tokens ?? 0,
  );
}

function textOf(message: Anthropic.Message): string {
  return message.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
}

export const anthropicProvider: AiProvider = {
  name: 'anthropic',

  async text(request) {
    const body = params(request);
    const message = await (await anthropic()).messages.create(body, { signal: request.signal });
    countTokens(body.model, message);
    return textOf(message);
  },

  async streamText(request, onText) {
    const stream = await (
      await anthropic()
    ).messages.create({ ...params(request), stream: true }, { signal: request.signal });
    let text = '';
    for await (const event of stream) {
      if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') {
        text += event.delta.text;
        onText(event.delta.text);
      }
    }
    return text;
  },

  async callTool(request) {
    const message = await (
      await anthropic()
    ).messages.create(
      {
        ...params(request),
        tools: [
          {
            name: request.tool.name,
            description: request.tool.description,
            input_schema: request.tool.inputSchema as Anthropic.Tool.InputSchema,
          },
        ],
        tool_choice: { type: 'tool', name: request.tool.name },
      },
      { signal: request.signal },
    );
    countTokens(params(request).model, message);
    const toolUse = message.content.find((block) => block.type === 'tool_use');
    return toolUse ? toolUse.input : textOf(message);
  },

  describeFailure(error) {
    if (!(error instanceof APIError)) return undefined;
    return failureFromStatus(error.status ?? 0, error.headers);
  },
};

import type { AiFailure, AiProvider, AiTextRequest, AiTool } from './ai-provider.server';
import { configuredProvider } from './providers.server';

/**
 * The calls the product's AI features make (course outlines: ai-outline.server.ts; lessons:
 * ai-lessons.server.ts; quizzes, flashcards, the tutor) on whichever provider is configured (see
 * `ai-provider.server.ts`): a forced tool call, a whole text, a stream; an empty answer is
 * unusable. In demo mode the vendor's HTTP mock answers (`mocks/`).
 *
 * Jobs call with no retries here (the job retries with backoff and shows the attempt
 * count); a member waiting on /api gets a few quick retries of transient failures.
 */
export type { AiFailure } from './ai-provider.server';

/** The model answered, but not with something we can accept. Retried like any failure. */
export class AiOutputError extends Error {
  override name = 'AiOutputError';
}

/** The configured provider. */
function aiProvider(): AiProvider {
  return configuredProvider();
}

export function describeAiFailure(error: unknown): AiFailure {
  if (error instanceof AiOutputError) return { kind: 'unusable' };
  // Network errors and the media vendors' failures: worth trying again soon.
  return aiProvider().describeFailure(error) ?? { kind: 'transient' };
}

export interface CallOptions {
  /**
   * Transient failures retried within this call, for a member waiting on the answer (default 0:
   * the job layer retries). The SDK's own retries stay off everywhere: retrying in one place
   * keeps the behaviour the same against the real API and its mock.
   */
  retries?: number;
}

const RETRY_WAIT_CAP_MS = 4_000;

async function withRetries<T>(retries: number, call: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await call();
    } catch (error) {
      const failure = describeAiFailure(error);
      if (attempt >= retries || failure.kind !== 'transient') throw error;
      const waitMs = Math.min(failure.retryAfterMs ?? 500 * 2 ** attempt, RETRY_WAIT_CAP_MS);
      await new Promise((resolve) => setTimeout(resolve, waitMs));
    }
  }
}

/**
 * The input of a forced call of `tool`, or the model's text when it wrote the JSON there
 * instead; an empty answer is unusable. The caller validates the shape (zod).
 */
export async function callTool(
  request: AiTextRequest & { tool: AiTool },
  options: CallOptions = {},
): Promise<unknown> {
  const answer = await withRetries(options.retries ?? 0, () => aiProvider().callTool(request));
  if (typeof answer === 'string' && !answer.trim())
    throw new AiOutputError(`The model did not call ${request.tool.name}`);
  return typeof answer === 'string' ? answer.trim() : answer;
}

/** The model's whole answer as text; an empty one is unusable. */
export async function completeText(
  request: AiTextRequest,
  options: CallOptions = {},
): Promise<string> {
  const text = (await withRetries(options.retries ?? 0, () => aiProvider().text(request))).trim();
  if (!text) throw new AiOutputError('The model gave an empty answer');
  return text;
}

/**
 * The model's answer as it is written: `onText` gets each new piece. Not retried here, since
 * what was shown cannot be taken back; the caller starts over or falls back.
 */
export async function streamText(
  request: AiTextRequest,
  onText: (delta: string) => void,
): Promise<string> {
  const text = (await aiProvider().streamText(request, onText)).trim();
  if (!text) throw new AiOutputError('The model gave an empty answer');
  return text;
}

/** The system prompt of every course-writing call. */
export const TEACHER_SYSTEM =
  'You are an expert teacher who writes clear, accurate online courses for self-learners.';

/** One line of member text inside a prompt: no line breaks or list separators. */
export const oneLine = (text: string) =>
  text
    .replace(/[\r\n]+/g, ' ')
    .replace(/;/g, ',')
    .trim();

/**
 * What the product needs from a language model, whoever serves it. Every AI feature (outlines,
 * lessons, quizzes, the tutor) calls this interface through `ai.server.ts`; each vendor
 * SDK lives behind it in its own file, and the configuration picks one (`aiProvider()`).
 */

/** What a call is for: a provider may use a different model for each. */
export type AiPurpose = 'outline' | 'lesson' | 'quiz' | 'flashcards' | 'tutor';

export interface AiMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface AiTextRequest {
  purpose: AiPurpose;
  system: string;
  /** The conversation so far, ending with the user's turn. */
  messages: AiMessage[];
  maxTokens?: number;
  signal?: AbortSignal;
}

/** A tool the model is made to call, so that its answer arrives as JSON in a known shape. */
export interface AiTool {
  name: string;
  description: string;
  /** JSON Schema of the tool's input. */
  inputSchema: Record<string, unknown>;
}

/**
 * How a failed AI call should be retried: `transient` (rate limit, overload, server or network
 * error) soon; `unusable` (the model answered with something we cannot accept) and `repeating`
 * (any other refusal, e.g. a bad request) slowly, since trying again at once would only pay for
 * the same answer. `retryAfterMs` is the provider's own Retry-After, when it sent one.
 */
export interface AiFailure {
  kind: 'transient' | 'unusable' | 'repeating';
  retryAfterMs?: number;
  /** The provider refused for rate: the call may be repeated after `retryAfterMs` at no cost. */
  rateLimited?: boolean;
}

export interface AiProvider {
  readonly name: string;
  /** The whole answer, as text. */
  text(request: AiTextRequest): Promise<string>;
  /** The answer as the model writes it: `onText` gets each new piece; resolves to the whole text. */
  streamText(request: AiTextRequest, onText: (delta: string) => void): Promise<string>;
  /**
   * The input of one forced call of `tool`, or the answer's text when the model wrote text
   * instead (some models put the JSON there); the caller validates either.
   */
  callTool(request: AiTextRequest & { tool: AiTool }): Promise<unknown>;
  /** How to retry one of this provider's errors; undefined for errors that are not its own. */
  describeFailure(error: unknown): AiFailure | undefined;
}

/** The headers of a provider's error answer (both SDKs hand back a fetch `Headers`). */
export type ErrorHeaders = { get(name: string): string | null } | null | undefined;

/**
 * How long the provider asked us to wait: `retry-after-ms` (OpenAI's, exact) first, else
 * `retry-after` in seconds or as an HTTP date.
 */
export function retryAfterMs(headers: ErrorHeaders, now = Date.now()): number | undefined {
  const exact = Number(headers?.get('retry-after-ms') ?? Number.NaN);
  if (Number.isFinite(exact) && exact > 0) return Math.ceil(exact);
  const value = headers?.get('retry-after')?.trim();
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return seconds > 0 ? seconds * 1000 : undefined;
  const date = Date.parse(value);
  return Number.isFinite(date) && date > now ? date - now : undefined;
}

/** The usual HTTP reading of an API error's status, shared by the providers. */
export function failureFromStatus(status: number, headers: ErrorHeaders): AiFailure {
  const transient =
    status === 0 || status === 408 || status === 409 || status === 429 || status >= 500;
  return {
    kind: transient ? 'transient' : 'repeating',
    retryAfterMs: retryAfterMs(headers),
    ...(status === 429 ? { rateLimited: true } : {}),
  };
}

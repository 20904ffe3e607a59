import { env } from '~/utils/env.server';
import { AiRateLimited, pauseAiCalls, takeAiBudget } from '~/utils/ai-rate-limit.server';
import { recordAiCall } from '~/utils/metrics.server';
import { traced } from '~/utils/tracing.server';
import type { AiProvider, AiTextRequest } from './ai-provider.server';
import { modelFor } from './ai-models.server';
import { anthropicProvider } from './anthropic-provider.server';
import { openaiProvider } from './openai-provider.server';

export interface AiBudget {
  take: () => Promise<void>;
  pause: (ms: number) => Promise<void>;
}

const sharedBudget: AiBudget = { take: takeAiBudget, pause: pauseAiCalls };

/**
 * Every call of `provider` first takes one call from the shared AI budget (ADR 0024), and a
 * provider's 429 with a Retry-After pauses the budget for every process. Refusals of either
 * kind read as `rateLimited` failures, which a job waits out without using a try.
 */
export function withAiBudget(provider: AiProvider, budget: AiBudget = sharedBudget): AiProvider {
  // With traces on, each call is a span (ADR 0064), named as OpenTelemetry's GenAI conventions
  // name them; the provider adds the tokens (noteOnSpan) once it has the answer.
  const call = <T>(request: AiTextRequest, run: () => Promise<T>): Promise<T> =>
    traced(
      () => {
        const model = modelOf(provider.name, request);
        return {
          name: `chat ${model}`,
          kind: 'client',
          attributes: {
            'gen_ai.operation.name': 'chat',
            'gen_ai.provider.name': provider.name,
            'gen_ai.request.model': model,
            'coursegen.ai.purpose': request.purpose,
          },
        };
      },
      () => budgeted(request, run),
    );
  async function budgeted<T>(request: AiTextRequest, run: () => Promise<T>): Promise<T> {
    await budget.take();
    const started = performance.now();
    const record = (outcome: 'ok' | 'rate_limited' | 'failed') =>
      recordAiCall({
        provider: provider.name,
        model: modelOf(provider.name, request),
        purpose: request.purpose,
        outcome,
        seconds: (performance.now() - started) / 1000,
      });
    try {
      const answer = await run();
      record('ok');
      return answer;
    } catch (error) {
      const failure = provider.describeFailure(error);
      record(failure?.rateLimited ? 'rate_limited' : 'failed');
      if (failure?.rateLimited && failure.retryAfterMs !== undefined)
        await budget.pause(failure.retryAfterMs);
      throw error;
    }
  }
  return {
    name: provider.name,
    text: (request) => call(request, () => provider.text(request)),
    streamText: (request, onText) => call(request, () => provider.streamText(request, onText)),
    callTool: (request) => call(request, () => provider.callTool(request)),
    describeFailure(error) {
      if (error instanceof AiRateLimited)
        return { kind: 'transient', retryAfterMs: error.retryAfterMs, rateLimited: true };
      return provider.describeFailure(error);
    },
  };
}

/** The model a call goes to, for the metrics' `model` label (ADR 0056). */
function modelOf(providerName: string, request: Pick<AiTextRequest, 'purpose'>): string {
  const { OPENAI_MODEL, ANTHROPIC_MODEL } = env();
  return modelFor(request.purpose, providerName === 'openai' ? OPENAI_MODEL : ANTHROPIC_MODEL);
}

const budgeted = new Map<AiProvider, AiProvider>();

/** The provider AI_PROVIDER names (ADR 0019), behind the shared AI budget; each falls back to its own mock in demo mode. */
export function configuredProvider(): AiProvider {
  const provider = env().AI_PROVIDER === 'openai' ? openaiProvider : anthropicProvider;
  let wrapped = budgeted.get(provider);
  if (!wrapped) {
    wrapped = withAiBudget(provider);
    budgeted.set(provider, wrapped);
  }
  return wrapped;
}

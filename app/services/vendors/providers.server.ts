import { env } from '~/utils/env.server';
import type { AiProvider } from './ai-provider.server';
import { anthropicProvider } from './anthropic-provider.server';
import { openaiProvider } from './openai-provider.server';

/** The provider AI_PROVIDER names (ADR 0019); each falls back to its own mock in demo mode. */
export function configuredProvider(): AiProvider {
  return env().AI_PROVIDER === 'openai' ? openaiProvider : anthropicProvider;
}

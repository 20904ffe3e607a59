import { env } from '~/utils/env.server';
import type { AiPurpose } from './ai-provider.server';

/**
 * The model a call is made with, whichever provider serves it: AI_OUTLINE_MODEL for outlines
 * and AI_LESSON_MODEL for lessons when set (a larger model for the short outline, a cheaper
 * or local one for the many lessons), else the provider's own model.
 */
export function modelFor(purpose: AiPurpose, providerModel: string): string {
  const { AI_OUTLINE_MODEL, AI_LESSON_MODEL } = env();
  if (purpose === 'outline') return AI_OUTLINE_MODEL ?? providerModel;
  if (purpose === 'lesson') return AI_LESSON_MODEL ?? providerModel;
  return providerModel;
}

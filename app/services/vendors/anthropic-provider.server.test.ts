import { describe } from 'vitest';
import { anthropicHandlers } from '../../../mocks/anthropic';
import { aiProviderContract } from '../../../tests/support/ai-provider-contract';
import { anthropicProvider } from './anthropic-provider.server';

// The real SDK against the HTTP mock of the Messages API.
describe('the Anthropic provider', () => {
  aiProviderContract(anthropicProvider, anthropicHandlers);
});

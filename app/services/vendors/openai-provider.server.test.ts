import { describe, expect, it } from 'vitest';
import { openaiHandlers } from '../../../mocks/openai';
import { aiProviderContract, lessonRequest } from '../../../tests/support/ai-provider-contract';
import { resetEnvForTests } from '~/utils/env.server';
import { openaiProvider } from './openai-provider.server';
import { describeAiFailure } from './ai.server';
import { languageInstruction } from '~/domain/languages';

// The real `openai` SDK against the HTTP mock of Chat Completions.
process.env.AI_PROVIDER = 'openai';
delete process.env.OPENAI_API_KEY;
delete process.env.OPENAI_BASE_URL;
resetEnvForTests();

describe('the OpenAI-compatible provider', () => {
  const setKnobs = aiProviderContract(openaiProvider, openaiHandlers);

  it('writes in the language the prompt asks for', async () => {
    setKnobs({});
    const text = await openaiProvider.text({
      ...lessonRequest,
      messages: [{ role: 'user', content: `Main topic: Rust\n${languageInstruction('hi')}` }],
    });
    expect(text).toMatch(/\p{Script=Devanagari}{3}/u);
  });

  it('reads an overload (503) as transient, and leaves errors not its own to others', async () => {
    setKnobs({ MOCK_AI_FAIL_FIRST: 1, MOCK_AI_FAIL_STATUS: 529 });
    const overloaded = await openaiProvider.text(lessonRequest).catch((caught: unknown) => caught);
    expect(describeAiFailure(overloaded)).toMatchObject({ kind: 'transient' });
    expect(openaiProvider.describeFailure(new Error('not ours'))).toBeUndefined();
  });
});

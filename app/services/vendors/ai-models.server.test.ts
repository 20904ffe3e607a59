import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicHandlers } from '../../../mocks/anthropic';
import { openaiHandlers } from '../../../mocks/openai';
import { resetEnvForTests } from '~/utils/env.server';
import type { AiProvider } from './ai-provider.server';
import { anthropicProvider } from './anthropic-provider.server';
import { openaiProvider } from './openai-provider.server';

// AI_OUTLINE_MODEL and AI_LESSON_MODEL reach the wire, whichever provider is configured.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coursegen-models-'));
Object.assign(process.env, {
  DATA_DIR: dataDir,
  MOCK_KNOBS_FILE: path.join(dataDir, 'mock-knobs.json'),
  AI_OUTLINE_MODEL: 'big-outline-model',
  AI_LESSON_MODEL: 'small-lesson-model',
  ANTHROPIC_MODEL: 'claude-default',
  OPENAI_MODEL: 'gpt-default',
});
resetEnvForTests();

const server = setupServer(...anthropicHandlers, ...openaiHandlers);
const models: string[] = [];
server.events.on('request:start', ({ request }) => {
  void request
    .clone()
    .json()
    .then((body: { model: string }) => models.push(body.model));
});

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => {
  server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  for (const name of ['AI_OUTLINE_MODEL', 'AI_LESSON_MODEL', 'ANTHROPIC_MODEL', 'OPENAI_MODEL'])
    delete process.env[name];
  resetEnvForTests();
});

const ask = (content: string) => ({
  system: 'You teach.',
  messages: [{ role: 'user' as const, content }],
});

describe.each([
  ['anthropic', anthropicProvider, 'claude-default'],
  ['openai', openaiProvider, 'gpt-default'],
] as [string, AiProvider, string][])('the %s provider', (_name, provider, ownModel) => {
  it('asks the outline model for outlines, the lesson model for lessons, its own for the rest', async () => {
    models.length = 0;
    await provider.callTool({
      ...ask('Main topic: Rust\nNumber of topics: 2'),
      purpose: 'outline',
      tool: { name: 'course_outline', description: 'Outline', inputSchema: { type: 'object' } },
    });
    await provider.text({ ...ask('Main topic: Rust\nSub-topic: Traits'), purpose: 'lesson' });
    await provider.text({ ...ask('What is a trait?'), purpose: 'tutor' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(models).toEqual(['big-outline-model', 'small-lesson-model', ownModel]);
  });
});

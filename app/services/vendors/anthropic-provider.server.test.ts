import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anthropicHandlers } from '../../../mocks/anthropic';
import { writeKnobs } from '../../../mocks/knobs';
import { anthropicProvider } from './anthropic-provider.server';
import { describeAiFailure } from './ai.server';

// The real SDK against the HTTP mock of the Messages API: plain, streamed and tool answers.
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coursegen-anthropic-'));
process.env.DATA_DIR = dataDir;
process.env.MOCK_KNOBS_FILE = path.join(dataDir, 'mock-knobs.json');
const server = setupServer(...anthropicHandlers);
const lesson = {
  purpose: 'lesson' as const,
  system: 'You teach.',
  messages: [{ role: 'user' as const, content: 'Main topic: Rust\nSub-topic: Ownership' }],
};

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => {
  server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the Anthropic provider', () => {
  it('streams the same text it answers whole, in several pieces', async () => {
    writeKnobs(dataDir, { MOCK_AI_STREAM_CHUNK_MS: 0 });
    const whole = await anthropicProvider.text(lesson);
    const pieces: string[] = [];
    const streamed = await anthropicProvider.streamText(lesson, (piece) => pieces.push(piece));
    expect(whole).toContain('Ownership');
    expect(streamed).toBe(whole);
    expect(pieces.join('')).toBe(whole);
    expect(pieces.length).toBeGreaterThan(10);
  });

  it('delivers the first words before the rest are written', async () => {
    writeKnobs(dataDir, { MOCK_AI_STREAM_CHUNK_MS: 20 });
    const started = Date.now();
    let firstAt = 0;
    await anthropicProvider.streamText(lesson, () => (firstAt ||= Date.now()));
    const doneAt = Date.now();
    expect(doneAt - firstAt).toBeGreaterThan((firstAt - started) * 2);
  });

  it('returns the forced tool call input', async () => {
    writeKnobs(dataDir, {});
    const input = await anthropicProvider.callTool({
      ...lesson,
      purpose: 'outline',
      messages: [{ role: 'user', content: 'Main topic: Rust\nNumber of topics: 3' }],
      tool: { name: 'course_outline', description: 'Outline', inputSchema: { type: 'object' } },
    });
    expect(Object.keys(input as object)).toEqual(['rust']);
    expect((input as { rust: unknown[] }).rust).toHaveLength(3);
  });

  it('reads a 429 as a transient rate limit with the Retry-After it sent', async () => {
    writeKnobs(dataDir, { MOCK_AI_FAIL_FIRST: 1, MOCK_AI_FAIL_STATUS: 429 });
    const error = await anthropicProvider.text(lesson).catch((caught: unknown) => caught);
    expect(describeAiFailure(error)).toEqual({
      kind: 'transient',
      retryAfterMs: 1000,
      rateLimited: true,
    });
  });
});

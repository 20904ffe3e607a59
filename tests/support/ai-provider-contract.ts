import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RequestHandler } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { writeKnobs } from '../../mocks/knobs';
import type { AiProvider } from '~/services/vendors/ai-provider.server';
import { describeAiFailure } from '~/services/vendors/ai.server';

export const lessonRequest = {
  purpose: 'lesson' as const,
  system: 'You teach.',
  messages: [{ role: 'user' as const, content: 'Main topic: Rust\nSub-topic: Ownership' }],
};

/**
 * The cases every AI provider passes with its real SDK against its vendor's HTTP mock: plain,
 * streamed and forced-tool answers, and a 429 read as a rate limit. Call it inside `describe`;
 * it returns a setter for the mock's knobs for the provider's own cases.
 */
export function aiProviderContract(provider: AiProvider, handlers: RequestHandler[]) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coursegen-ai-provider-'));
  process.env.DATA_DIR = dataDir;
  process.env.MOCK_KNOBS_FILE = path.join(dataDir, 'mock-knobs.json');
  const server = setupServer(...handlers);
  const setKnobs = (knobs: Record<string, string | number | boolean>) => writeKnobs(dataDir, knobs);

  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => {
    server.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('streams the same text it answers whole, in several pieces', async () => {
    setKnobs({ MOCK_AI_STREAM_CHUNK_MS: 0 });
    const whole = await provider.text(lessonRequest);
    const pieces: string[] = [];
    const streamed = await provider.streamText(lessonRequest, (piece) => pieces.push(piece));
    expect(whole).toContain('Ownership');
    expect(streamed).toBe(whole);
    expect(pieces.join('')).toBe(whole);
    expect(pieces.length).toBeGreaterThan(10);
  });

  it('delivers the first words before the rest are written', async () => {
    setKnobs({ MOCK_AI_STREAM_CHUNK_MS: 20 });
    const started = Date.now();
    let firstAt = 0;
    await provider.streamText(lessonRequest, () => (firstAt ||= Date.now()));
    const doneAt = Date.now();
    expect(doneAt - firstAt).toBeGreaterThan((firstAt - started) * 2);
  });

  it('returns the forced tool call input', async () => {
    setKnobs({});
    const input = await provider.callTool({
      ...lessonRequest,
      purpose: 'outline',
      messages: [{ role: 'user', content: 'Main topic: Rust\nNumber of topics: 3' }],
      tool: { name: 'course_outline', description: 'Outline', inputSchema: { type: 'object' } },
    });
    expect(Object.keys(input as object)).toEqual(['rust']);
    expect((input as { rust: unknown[] }).rust).toHaveLength(3);
  });

  it('reads a 429 as a transient rate limit with the Retry-After it sent', async () => {
    setKnobs({ MOCK_AI_FAIL_FIRST: 1, MOCK_AI_FAIL_STATUS: 429 });
    const error = await provider.text(lessonRequest).catch((caught: unknown) => caught);
    expect(describeAiFailure(error)).toEqual({
      kind: 'transient',
      retryAfterMs: 1000,
      rateLimited: true,
    });
  });

  return setKnobs;
}

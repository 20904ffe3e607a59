import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EnvError, parseEnv } from './env.server';

// How the configured AI provider decides demo mode (ADR 0019).
const base = { DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'coursegen-env-ai-')) };

describe('the AI provider setting', () => {
  it('with AI_PROVIDER=openai and no key or address, runs in demo mode on the OpenAI mock', () => {
    const config = parseEnv({ ...base, AI_PROVIDER: 'openai' });
    expect(config.demo).toBe(true);
    expect(config.mocked.openai).toBe(true);
  });

  it('counts a local server address as configured: no key needed, nothing mocked', () => {
    const config = parseEnv({
      ...base,
      AI_PROVIDER: 'openai',
      OPENAI_BASE_URL: 'http://localhost:11434/v1',
      OPENAI_MODEL: 'llama3.1',
    });
    expect(config.demo).toBe(false);
    expect(config.mocked.openai).toBe(false);
    expect(config.mocked.unsplash).toBe(false);
  });

  it('stays in demo mode when only the other provider is configured', () => {
    expect(parseEnv({ ...base, OPENAI_API_KEY: 'sk-x' }).demo).toBe(true);
    expect(parseEnv({ ...base, AI_PROVIDER: 'openai', ANTHROPIC_API_KEY: 'sk-ant' }).demo).toBe(
      true,
    );
  });

  it('refuses an unknown provider, naming the variable', () => {
    expect(() => parseEnv({ ...base, AI_PROVIDER: 'gemini' })).toThrow(EnvError);
    expect(() => parseEnv({ ...base, AI_PROVIDER: 'gemini' })).toThrow(/AI_PROVIDER/);
  });
});

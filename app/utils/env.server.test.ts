import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { envSchema, EnvError, parseEnv } from './env.server';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coursegen-env-'));
const base = { DATA_DIR: dataDir };

describe('parseEnv', () => {
  it('runs in demo mode with every vendor mocked when no keys are set', () => {
    const config = parseEnv(base);
    expect(config.demo).toBe(true);
    expect(config.mocked).toEqual({
      anthropic: true,
      openai: true,
      unsplash: true,
      youtube: true,
      paypal: true,
      razorpay: true,
    });
    expect(config.PORT).toBe(3000);
    expect(config.APP_URL).toBe('http://localhost:3000');
    // Room for several courses of up to 60 lessons each (one unit per lesson).
    expect(config.AI_REQUESTS_PER_HOUR).toBe(300);
  });

  it('mocks nothing outside demo mode, even vendors without keys', () => {
    const config = parseEnv({ ...base, ANTHROPIC_API_KEY: 'sk-real' });
    expect(config.demo).toBe(false);
    expect(Object.values(config.mocked)).toEqual([false, false, false, false, false, false]);
  });

  it('in forced demo mode mocks only the vendors without keys', () => {
    const config = parseEnv({ ...base, DEMO_MODE: 'true', UNSPLASH_ACCESS_KEY: 'key' });
    expect(config.demo).toBe(true);
    expect(config.mocked.unsplash).toBe(false);
    expect(config.mocked.anthropic).toBe(true);
  });

  it('treats NAME= as unset', () => {
    expect(parseEnv({ ...base, PORT: '', SMTP_URL: '' }).PORT).toBe(3000);
  });

  it('names each malformed variable', () => {
    expect(() => parseEnv({ ...base, PORT: 'x', REDIS_URL: 'nope' })).toThrowError(EnvError);
    try {
      parseEnv({ ...base, PORT: 'x', REDIS_URL: 'nope' });
    } catch (error) {
      expect((error as Error).message.split('\n')).toEqual([
        expect.stringMatching(/^Invalid environment variable PORT: /),
        expect.stringMatching(/^Invalid environment variable REDIS_URL: /),
      ]);
    }
  });

  it('keeps one generated session secret in the data folder', () => {
    const first = parseEnv(base).SESSION_SECRET;
    expect(first).toHaveLength(64);
    expect(parseEnv(base).SESSION_SECRET).toBe(first);
  });

  it('says what to do when the data folder cannot be written, instead of a bare ENOENT', () => {
    // A file where the folder should be stands for a folder this user may not write to.
    const blocker = path.join(dataDir, 'not-a-folder');
    fs.writeFileSync(blocker, '');
    const unwritable = path.join(blocker, 'data');
    expect(() => parseEnv({ DATA_DIR: unwritable })).toThrow(EnvError);
    expect(() => parseEnv({ DATA_DIR: unwritable })).toThrow(
      /DATA_DIR \(.*not-a-folder\/data\) cannot be written by uid .* chown -R .* -v coursegen-data:\/data/,
    );
  });

  it('documents every variable in .env.example', () => {
    const example = fs.readFileSync(path.resolve('.env.example'), 'utf8');
    const documented = [...example.matchAll(/^(?:# )?([A-Z_]+)=/gm)].map((match) => match[1]);
    expect([...new Set(documented)].sort()).toEqual(
      Object.keys(envSchema.shape)
        .filter((k) => k !== 'NODE_ENV')
        .sort(),
    );
  });

  it('documents every variable in the README configuration table', () => {
    const readme = fs.readFileSync(path.resolve('README.md'), 'utf8');
    const missing = Object.keys(envSchema.shape)
      .filter((key) => key !== 'NODE_ENV')
      .filter((key) => !readme.includes(`\`${key}\``));
    expect(missing).toEqual([]);
  });
});

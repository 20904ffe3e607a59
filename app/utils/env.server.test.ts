import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { envSchema, EnvError, parseEnv, readDataFiles } from './env.server';

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

  it('writes nothing to the data folder until the install id or session secret is read', () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'env-lazy-'));
    const config = parseEnv({ DATA_DIR: path.join(folder, 'data') });
    expect(config.PORT).toBe(3000);
    expect(fs.readdirSync(folder)).toEqual([]);
    expect(config.INSTALL_ID).toMatch(/^[0-9a-f]{8}$/);
    expect(fs.readdirSync(path.join(folder, 'data'))).toEqual(['install-id']);
    readDataFiles(config);
    expect(fs.readdirSync(path.join(folder, 'data')).sort()).toEqual([
      'install-id',
      'session-secret',
    ]);
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
    const config = parseEnv({ DATA_DIR: unwritable });
    expect(() => readDataFiles(config)).toThrow(EnvError);
    expect(() => config.SESSION_SECRET).toThrow(
      /DATA_DIR \(.*not-a-folder\/data\) cannot be written by uid .* chown -R .* -v coursegen-data:\/data/,
    );
  });

  describe('with DATABASE_URL (PostgreSQL, several nodes)', () => {
    const postgres = {
      DATABASE_URL: 'postgres://coursegen:secret@db.internal:5432/coursegen',
      SESSION_SECRET: 'x'.repeat(40),
    };

    it('needs SESSION_SECRET: a secret generated per node would sign cookies no other accepts', () => {
      const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'coursegen-env-pg-'));
      const { SESSION_SECRET: _, ...withoutSecret } = postgres;
      expect(() => parseEnv({ DATA_DIR: folder, ...withoutSecret })).toThrow(
        /^Invalid environment variable SESSION_SECRET: required when DATABASE_URL is set/,
      );
      expect(fs.readdirSync(folder)).toEqual([]);
    });

    it('takes the install id the start read from the database, and writes nothing to DATA_DIR', () => {
      const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'coursegen-env-pg-'));
      const config = parseEnv({ DATA_DIR: folder, ...postgres, COURSEGEN_INSTALL_ID: '0a1b2c3d' });
      expect(config.INSTALL_ID).toBe('0a1b2c3d');
      expect(config.REDIS_PREFIX).toBe('coursegen-0a1b2c3d');
      expect(config.DATABASE_POOL_SIZE).toBe(10);
      expect(fs.readdirSync(folder)).toEqual([]);
    });

    it('says how to start when the install id was not read first', () => {
      const config = parseEnv({ ...base, ...postgres });
      expect(() => config.REDIS_PREFIX).toThrow(EnvError);
      expect(() => config.INSTALL_ID).toThrow(
        /kept in the database and read at start: run CourseGen with npm start/,
      );
      // Whatever does not need it still works, and a prefix set by hand is used as it is.
      expect(config.DATABASE_URL).toBe(postgres.DATABASE_URL);
      expect(parseEnv({ ...base, ...postgres, REDIS_PREFIX: 'shared' }).REDIS_PREFIX).toBe(
        'shared',
      );
    });

    it('accepts only postgres URLs and a pool size from 1 to 1000', () => {
      expect(() => parseEnv({ ...base, ...postgres, DATABASE_URL: 'mysql://db/x' })).toThrow(
        /DATABASE_URL: must start with postgres:\/\/ or postgresql:\/\//,
      );
      expect(() => parseEnv({ ...base, ...postgres, DATABASE_POOL_SIZE: '0' })).toThrow(
        /DATABASE_POOL_SIZE/,
      );
      expect(
        parseEnv({
          ...base,
          ...postgres,
          DATABASE_URL: 'postgresql://h/db',
          DATABASE_POOL_SIZE: '25',
        }).DATABASE_POOL_SIZE,
      ).toBe(25);
    });
  });

  it('runs web and worker unless PROCESSES says one of them', () => {
    expect(parseEnv(base).PROCESSES).toBe('all');
    expect(parseEnv({ ...base, PROCESSES: 'worker' }).PROCESSES).toBe('worker');
    expect(() => parseEnv({ ...base, PROCESSES: 'both' })).toThrow(/PROCESSES/);
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

  it('documents every variable in the configuration guide (docs/configuration.md)', () => {
    const guide = fs.readFileSync(path.resolve('docs/configuration.md'), 'utf8');
    const missing = Object.keys(envSchema.shape)
      .filter((key) => key !== 'NODE_ENV')
      .filter((key) => !guide.includes(`\`${key}\``));
    expect(missing).toEqual([]);
  });
});

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkRedis } from '../../scripts/lib/redis';
import { parseEnv } from '~/utils/env.server';
import { startOwnRedis, type OwnRedis } from '../support/own-redis';

/** The Redis the app will use is looked at before anything runs on it. */
let redis: OwnRedis;
const folders: string[] = [];
beforeAll(async () => {
  redis = await startOwnRedis(); // --save '' --appendonly no: keeps nothing
});
afterAll(async () => {
  await redis?.stop();
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
});

function install() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coursegen-install-'));
  folders.push(dataDir);
  return parseEnv({ DATA_DIR: dataDir });
}

describe('the Redis an install uses', () => {
  it('gets a prefix of its own by default, kept across starts', () => {
    const first = install();
    const second = install();
    expect(first.REDIS_PREFIX).toBe(`coursegen-${first.INSTALL_ID}`);
    expect(first.REDIS_PREFIX).not.toBe(second.REDIS_PREFIX);
    expect(parseEnv({ DATA_DIR: first.DATA_DIR }).REDIS_PREFIX).toBe(first.REDIS_PREFIX);
    expect(fs.statSync(path.join(first.DATA_DIR, 'install-id')).mode & 0o777).toBe(0o600);
  });

  it('says when Redis keeps nothing on disk', async () => {
    const config = install();
    expect(await checkRedis(redis.url, config.REDIS_PREFIX, config.INSTALL_ID)).toEqual({
      persistent: false,
    });
  });

  it('refuses a prefix another install owns, and lets the owner in again', async () => {
    const shared = `coursegen-shared-${randomBytes(3).toString('hex')}`;
    const owner = install();
    const other = install();
    await checkRedis(redis.url, shared, owner.INSTALL_ID);
    await expect(checkRedis(redis.url, shared, other.INSTALL_ID)).rejects.toThrow(
      new RegExp(
        `prefix "${shared}" .* belongs to another CourseGen install \\(${owner.INSTALL_ID}\\)`,
      ),
    );
    await expect(checkRedis(redis.url, shared, owner.INSTALL_ID)).resolves.toBeDefined();
  });
});

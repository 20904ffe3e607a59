import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../db/schema';
import { databaseFile, migrateDatabase, openDatabase } from '../../db/connection';
import { createUser, getUserByEmail, hashPassword, verifyPassword } from '~/models/users.server';
import { database, tables } from '~/utils/database.server';
import { resetEnvForTests } from '~/utils/env.server';
import { seed, SeedConflict } from '../../scripts/seed';
import { builtEntry } from '../support/built';

describe('seeding at start', () => {
  it('creates one main admin with a password shown once, and the five policies', async () => {
    delete process.env.ADMIN_PASSWORD;
    process.env.ADMIN_EMAIL = 'Owner@Example.com';
    resetEnvForTests();

    const first = await seed();
    expect(first.adminEmail).toBe('owner@example.com');
    expect(first.generatedPassword).toMatch(/^[\w-]{16}$/);
    const admin = (await getUserByEmail('owner@example.com'))!;
    expect(admin.role).toBe('main_admin');
    await expect(verifyPassword(first.generatedPassword!, admin.passwordHash)).resolves.toBe(true);
    expect((await database().select().from(tables.policies)).map((p) => p.key).sort()).toEqual([
      'billing',
      'cancel',
      'privacy',
      'refund',
      'terms',
    ]);

    const second = await seed();
    expect(second).toEqual({ adminEmail: 'owner@example.com' });
  });

  it('never makes a second main admin after the first one changes their email', async () => {
    await database()
      .update(tables.users)
      .set({ email: 'new-owner@example.com' })
      .where(eq(tables.users.role, 'main_admin'));
    await seed();
    const mainAdmins = await database()
      .select()
      .from(tables.users)
      .where(eq(tables.users.role, 'main_admin'));
    expect(mainAdmins.map((u) => u.email)).toEqual(['new-owner@example.com']);
    expect(await getUserByEmail('owner@example.com')).toBeUndefined();
  });

  it('never promotes an account it did not create, and says what to do', async () => {
    await database().delete(tables.users);
    await createUser({
      email: 'first@example.com',
      name: 'Stranger',
      password: 'their-own-password',
    });
    process.env.ADMIN_EMAIL = 'first@example.com';
    resetEnvForTests();
    const refused = seed();
    await expect(refused).rejects.toBeInstanceOf(SeedConflict);
    await expect(refused).rejects.toThrow(/ADMIN_EMAIL \(first@example\.com\) already exists/);
    expect((await getUserByEmail('first@example.com'))!.role).toBe('member');
    expect(
      await database().select().from(tables.users).where(eq(tables.users.role, 'main_admin')),
    ).toEqual([]);
  });

  it('stops `npm start` with what to do when a sign-up took ADMIN_EMAIL first', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coursegen-seed-'));
    try {
      // A data folder of its own, opened raw: the database a previous start left.
      const taken = openDatabase(databaseFile(dataDir));
      migrateDatabase(taken);
      taken
        .insert(users)
        .values({
          id: 'stranger',
          email: 'claimed@example.com',
          name: 'Stranger',
          passwordHash: await hashPassword('their-own-password'),
        })
        .run();
      const started = spawnSync(process.execPath, [builtEntry('start')], {
        env: {
          ...process.env,
          NODE_ENV: 'production',
          DATA_DIR: dataDir,
          // The SQLite file prepared above, also when the tests run on PostgreSQL.
          DATABASE_URL: undefined,
          ADMIN_EMAIL: 'claimed@example.com',
          APP_URL: 'http://127.0.0.1:9',
        },
        encoding: 'utf8',
        timeout: 120_000,
      });
      expect(started.status).toBe(1);
      expect(started.stderr).toContain(
        'An account with ADMIN_EMAIL (claimed@example.com) already exists',
      );
      expect(started.stdout).not.toContain('CourseGen is running');
      const stranger = taken.select().from(users).where(eq(users.id, 'stranger')).get()!;
      expect(stranger.role).toBe('member');
      taken.$client.close();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

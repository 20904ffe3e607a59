import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { policies, users } from '../../db/schema';
import { databaseFile, migrateDatabase, openDatabase } from '../../db/connection';
import { createUser, getUserByEmail, hashPassword, verifyPassword } from '~/models/users.server';
import { db } from '~/utils/db.server';
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
    const admin = getUserByEmail('owner@example.com')!;
    expect(admin.role).toBe('main_admin');
    await expect(verifyPassword(first.generatedPassword!, admin.passwordHash)).resolves.toBe(true);
    expect(
      db()
        .select()
        .from(policies)
        .all()
        .map((p) => p.key)
        .sort(),
    ).toEqual(['billing', 'cancel', 'privacy', 'refund', 'terms']);

    const second = await seed();
    expect(second).toEqual({ adminEmail: 'owner@example.com' });
  });

  it('never makes a second main admin after the first one changes their email', async () => {
    db()
      .update(users)
      .set({ email: 'new-owner@example.com' })
      .where(eq(users.role, 'main_admin'))
      .run();
    await seed();
    const mainAdmins = db().select().from(users).where(eq(users.role, 'main_admin')).all();
    expect(mainAdmins.map((u) => u.email)).toEqual(['new-owner@example.com']);
    expect(getUserByEmail('owner@example.com')).toBeUndefined();
  });

  it('never promotes an account it did not create, and says what to do', async () => {
    db().delete(users).run();
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
    expect(getUserByEmail('first@example.com')!.role).toBe('member');
    expect(db().select().from(users).where(eq(users.role, 'main_admin')).all()).toEqual([]);
  });

  it('stops `npm start` with what to do when a sign-up took ADMIN_EMAIL first', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coursegen-seed-'));
    try {
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

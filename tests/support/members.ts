import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { createCookie } from '@remix-run/node';
import bcrypt from 'bcryptjs';
import type { BrowserContext } from 'playwright-core';
import { databaseFile, openDatabase, type Db } from '../../db/connection';
import { sessions, users, type Plan } from '../../db/schema';
import { hashToken, newId, newSecretToken } from '~/utils/ids.server';

/**
 * Members for browser tests, written straight into the running app's SQLite
 * file. Until the sign-up pages are merged, `signUp` stands in for the UI
 * sign-up: it creates the member and signs the browser in with a session
 * cookie made exactly as app/utils/auth.server.ts makes it.
 */
export interface Member {
  id: string;
  email: string;
  name: string;
  password: string;
  plan: Plan;
}

const databases = new Map<string, Db>();

/** One connection per data folder, kept for the test run (WAL lets the app write meanwhile). */
export function appDatabase(dataDir: string): Db {
  let db = databases.get(dataDir);
  if (!db) {
    db = openDatabase(databaseFile(dataDir));
    databases.set(dataDir, db);
  }
  return db;
}

export function closeAppDatabases() {
  for (const db of databases.values()) db.$client.close();
  databases.clear();
}

export function createMember(
  dataDir: string,
  { plan = 'free', name = 'Test Member' }: { plan?: Plan; name?: string } = {},
): Member {
  const member: Member = {
    id: newId(),
    email: `member-${randomBytes(5).toString('hex')}@example.com`,
    name,
    password: 'correct-horse-battery',
    plan,
  };
  appDatabase(dataDir)
    .insert(users)
    .values({
      id: member.id,
      email: member.email,
      name: member.name,
      // A low cost keeps tests fast; verification works the same.
      passwordHash: bcrypt.hashSync(member.password, 4),
      plan,
    })
    .run();
  return member;
}

/** A session row for the member and its signed cookie value, as the app makes them. */
export async function sessionCookieValue(
  dataDir: string,
  member: Pick<Member, 'id'>,
): Promise<string> {
  const token = newSecretToken();
  appDatabase(dataDir)
    .insert(sessions)
    .values({
      id: hashToken(token),
      userId: member.id,
      expiresAt: new Date(Date.now() + 24 * 3600 * 1000),
    })
    .run();
  const secret = fs.readFileSync(path.join(dataDir, 'session-secret'), 'utf8').trim();
  const cookie = createCookie('__session', { path: '/', httpOnly: true, secrets: [secret] });
  const serialized = await cookie.serialize(token);
  return serialized.slice('__session='.length, serialized.indexOf(';'));
}

/** Signs the browser context in as the member (a session row and its signed cookie). */
export async function signInAs(
  context: BrowserContext,
  baseURL: string,
  dataDir: string,
  member: Pick<Member, 'id'>,
) {
  const value = await sessionCookieValue(dataDir, member);
  await context.addCookies([{ name: '__session', value, url: baseURL, httpOnly: true }]);
}

/** The sign-up step of the browser tests (see the note at the top). */
export async function signUp(
  context: BrowserContext,
  baseURL: string,
  dataDir: string,
  options: { plan?: Plan; name?: string } = {},
): Promise<Member> {
  const member = createMember(dataDir, options);
  await signInAs(context, baseURL, dataDir, member);
  return member;
}

import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { createCookie } from '@remix-run/node';
import bcrypt from 'bcryptjs';
import { eq } from 'drizzle-orm';
import type { BrowserContext, Page } from 'playwright-core';
import { databaseFile, openDatabase, type Db } from '../../db/connection';
import { sessions, users, type Plan } from '../../db/schema';
import { hashToken, newId, newSecretToken } from '~/utils/ids.server';
import { signUpInBrowser } from './accounts';

/**
 * Members for browser tests. `signUp` goes through the real sign-up page;
 * `createMember` + `signInAs` write straight into the running app's SQLite
 * file, for tests whose subject is not signing up (a session cookie made
 * exactly as app/utils/auth.server.ts makes it).
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

/**
 * The sign-up step of the browser tests: a new member signs up through the
 * real /signup page and lands on /home. A paid plan is then set in the test's
 * database, as a completed payment would.
 */
export async function signUp(
  page: Page,
  dataDir: string,
  { plan = 'free', name }: { plan?: Plan; name?: string } = {},
): Promise<Member> {
  const account = await signUpInBrowser(page, { name });
  const db = appDatabase(dataDir);
  const row = db.select().from(users).where(eq(users.email, account.email)).get();
  if (!row) throw new Error(`sign-up did not store ${account.email}`);
  if (plan !== 'free') db.update(users).set({ plan }).where(eq(users.id, row.id)).run();
  return { id: row.id, email: account.email, name: account.name, password: account.password, plan };
}

export function findUserIdByEmail(dataDir: string, email: string): string {
  const row = appDatabase(dataDir)
    .select({ id: users.id })
    .from(users)
    .where(eq(users.email, email.toLowerCase()))
    .get();
  if (!row) throw new Error(`No user ${email}`);
  return row.id;
}

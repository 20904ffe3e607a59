import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { createCookie } from '@remix-run/node';
import { hash } from '@node-rs/argon2';
import { eq } from 'drizzle-orm';
import type { BrowserContext, Page } from 'playwright-core';
import type { Plan } from '../../db/schema';
import { first, type Database } from '~/utils/database.server';
import { env } from '~/utils/env.server';
import { hashToken, newId, newSecretToken } from '~/utils/ids.server';
import { signUpInBrowser } from './accounts';
import { appDataLayer, THIS_PROCESS, type DatabaseTarget } from './app-database';

export { closeAppDatabases, type AppDatabase } from './app-database';

/**
 * Members for browser and HTTP tests. `signUp` goes through the real sign-up page;
 * `createMember` + `signInAs` write straight into the running app's database (its SQLite file
 * or its PostgreSQL database), for tests whose subject is not signing up (a session cookie made
 * exactly as app/utils/auth.server.ts makes it).
 */
export interface Member {
  id: string;
  email: string;
  name: string;
  password: string;
  plan: Plan;
}

/**
 * The running app's database, queried with the tables of its dialect: `tables` of
 * ~/utils/database.server in integration tests (the same dialect as the app's), the SQLite
 * tables of db/schema in browser tests (their app is on SQLite). Kept open for the test file
 * (`closeAppDatabases`).
 */
export function appDatabase(target: DatabaseTarget): Database {
  return appDataLayer(target).database();
}

const MEMBER_PASSWORD = 'correct-horse-battery';
let memberPasswordHash: Promise<string> | undefined;
/**
 * argon2id at a low cost, computed once: tests stay fast and verification works the same (the
 * cost is read from the hash).
 */
const passwordHashOfMembers = () =>
  (memberPasswordHash ??= hash(MEMBER_PASSWORD, { memoryCost: 1024, timeCost: 1 }));

export async function createMember(
  target: DatabaseTarget,
  { plan = 'free', name = 'Test Member' }: { plan?: Plan; name?: string } = {},
): Promise<Member> {
  const member: Member = {
    id: newId(),
    email: `member-${randomBytes(5).toString('hex')}@example.com`,
    name,
    password: MEMBER_PASSWORD,
    plan,
  };
  const { tables, root } = appDataLayer(target);
  await root.insert(tables.users).values({
    id: member.id,
    email: member.email,
    name: member.name,
    passwordHash: await passwordHashOfMembers(),
    plan,
  });
  return member;
}

/** The secret the app signs its cookies with. */
function sessionSecret(target: DatabaseTarget): string {
  if (target === THIS_PROCESS) return env().SESSION_SECRET;
  const app = typeof target === 'string' ? { dataDir: target } : target;
  return (
    app.sessionSecret ?? fs.readFileSync(path.join(app.dataDir, 'session-secret'), 'utf8').trim()
  );
}

/** A session row for the member and its signed cookie value, as the app makes them. */
export async function sessionCookieValue(
  target: DatabaseTarget,
  member: Pick<Member, 'id'>,
): Promise<string> {
  const token = newSecretToken();
  const { tables, root } = appDataLayer(target);
  await root.insert(tables.sessions).values({
    id: hashToken(token),
    userId: member.id,
    expiresAt: new Date(Date.now() + 24 * 3600 * 1000),
  });
  const cookie = createCookie('__session', {
    path: '/',
    httpOnly: true,
    secrets: [sessionSecret(target)],
  });
  const serialized = await cookie.serialize(token);
  return serialized.slice('__session='.length, serialized.indexOf(';'));
}

/** Signs the browser context in as the member (a session row and its signed cookie). */
export async function signInAs(
  context: BrowserContext,
  baseURL: string,
  target: DatabaseTarget,
  member: Pick<Member, 'id'>,
) {
  const value = await sessionCookieValue(target, member);
  await context.addCookies([{ name: '__session', value, url: baseURL, httpOnly: true }]);
}

/**
 * The sign-up step of the browser tests: a new member signs up through the
 * real /signup page and lands on /home. A paid plan is then set in the test's
 * database, as a completed payment would.
 */
export async function signUp(
  page: Page,
  target: DatabaseTarget,
  { plan = 'free', name }: { plan?: Plan; name?: string } = {},
): Promise<Member> {
  const account = await signUpInBrowser(page, { name });
  const { tables, root } = appDataLayer(target);
  const { users } = tables;
  const row = await first(root.select().from(users).where(eq(users.email, account.email)));
  if (!row) throw new Error(`sign-up did not store ${account.email}`);
  if (plan !== 'free') await root.update(users).set({ plan }).where(eq(users.id, row.id));
  return { id: row.id, email: account.email, name: account.name, password: account.password, plan };
}

import { spawn, type ChildProcess } from 'node:child_process';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll } from 'vitest';
import { database, tables } from '~/utils/database.server';
import { freePort } from '../../scripts/lib/system';
import { THIS_PROCESS } from './app-database';
import { builtEntry } from './built';
import { closeAppDatabases, createMember, sessionCookieValue, type Member } from './members';
import { until } from './processes';
import { TEST_REDIS_URL } from './redis';

/**
 * What the settings tests (plans, brand) stand on: two built web processes sharing this file's
 * database and Redis, as two nodes do, and a main admin, an admin and a member signed in.
 */
export interface WebProcess {
  child: ChildProcess;
  base: string;
  output: () => string;
}

export interface SignedIn {
  member: Member;
  cookie: string;
}

async function launchWeb(): Promise<WebProcess> {
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, [builtEntry('web-process')], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      APP_URL: `http://127.0.0.1:${port}`,
      REDIS_URL: TEST_REDIS_URL,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const web = { child, base: `http://127.0.0.1:${port}`, output: () => output };
  await until(async () => {
    if (child.exitCode !== null) throw new Error(`web-process exited:\n${output}`);
    const response = await fetch(`${web.base}/healthz`).catch(() => null);
    return response?.status === 200 || undefined;
  }, 90_000);
  return web;
}

async function signedIn(role: 'member' | 'admin' | 'main_admin'): Promise<SignedIn> {
  const member = await createMember(THIS_PROCESS);
  if (role !== 'member')
    await database().update(tables.users).set({ role }).where(eq(tables.users.id, member.id));
  return { member, cookie: `__session=${await sessionCookieValue(THIS_PROCESS, member)}` };
}

/** Started before the file's tests and stopped after them; read the fields inside tests. */
export function twoWebProcessesForThisFile() {
  const nodes = {} as {
    first: WebProcess;
    second: WebProcess;
    owner: SignedIn;
    admin: SignedIn;
    free: SignedIn;
  };
  beforeAll(async () => {
    [nodes.first, nodes.second] = await Promise.all([launchWeb(), launchWeb()]);
    [nodes.owner, nodes.admin, nodes.free] = await Promise.all([
      signedIn('main_admin'),
      signedIn('admin'),
      signedIn('member'),
    ]);
  }, 120_000);
  afterAll(async () => {
    for (const web of [nodes.first, nodes.second]) web?.child.kill('SIGKILL');
    await closeAppDatabases();
  });
  return nodes;
}

/** The plan settings form as the page posts it, at the product's defaults. */
export const DEFAULT_PLAN_FORM: Readonly<Record<string, string>> = {
  monthlyPrice: '8',
  monthlyCurrency: 'USD',
  monthlyRazorpayPrice: '8',
  monthlyRazorpayCurrency: 'USD',
  monthlyTrialDays: '0',
  yearlyPrice: '88',
  yearlyCurrency: 'USD',
  yearlyRazorpayPrice: '88',
  yearlyRazorpayCurrency: 'USD',
  yearlyTrialDays: '0',
  freeTopics: '5',
  freePastedChars: '20000',
  monthlyTopics: '10',
  monthlyPastedChars: '100000',
  monthlyDocuments: 'on',
  yearlyTopics: '10',
  yearlyPastedChars: '100000',
  yearlyDocuments: 'on',
};

/** Posts the plan settings form to /admin/settings as `cookie`'s holder, as a browser without JavaScript. */
export function postPlanSettings(web: WebProcess, cookie: string, form: Record<string, string>) {
  return fetch(`${web.base}/admin/settings`, {
    method: 'POST',
    headers: {
      Cookie: cookie,
      Origin: web.base,
      'Content-Type': 'application/x-www-form-urlencoded',
    },
    body: new URLSearchParams(form),
    redirect: 'manual',
  });
}

import os from 'node:os';
import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  emailsTo,
  get,
  pageResult,
  post,
  resetTokenFrom,
  verifyTokenFrom,
  sessionCookie,
  settle,
  uniqueEmail,
  uniqueIp,
} from '../support/account-routes';
import { createUser, getUserByEmail } from '~/models/users.server';
import { loader as outboxLoader } from '~/routes/admin/admin.outbox';
import { loader as outboxEmailLoader } from '~/routes/admin/admin.outbox_.$id';
import { action as apiData } from '~/routes/api/api.data';
import { action as apiForgot } from '~/routes/api/api.forgot';
import { action as apiProfile } from '~/routes/api/api.profile';
import { action as apiReset } from '~/routes/api/api.reset-password';
import { action as apiSignIn } from '~/routes/api/api.signin';
import { action as apiSignUp } from '~/routes/api/api.signup';
import { loader as forgotLoader } from '~/routes/auth/forgot';
import { loader as homeLoader } from '~/routes/member/home';
import { action as logoutAction } from '~/routes/auth/logout';
import { action as profileAction, loader as profileLoader } from '~/routes/member/profile';
import { loader as resetLoader } from '~/routes/auth/reset-password.$token';
import { action as verifyAction, loader as verifyLoader } from '~/routes/auth/verify-email.$token';
import { action as signInAction, loader as signInLoader } from '~/routes/auth/signin';
import { loader as signUpLoader } from '~/routes/auth/signup';
import { requireApiAdmin } from '~/utils/auth.server';
import { database, first, tables } from '~/utils/database.server';
import { resetEnvForTests } from '~/utils/env.server';
import { hashToken } from '~/utils/ids.server';
import { waitForRedis } from '~/utils/redis.server';

const PASSWORD = 'correct-horse-1';
const BAD_TOKEN = 'This reset link is invalid or has expired';
const RESET_SENT = 'If an account exists for this email, a password reset link has been sent to it';

async function json(response: unknown) {
  const r = response as Response;
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
}

async function signUp(email = uniqueEmail(), password = PASSWORD, mName = 'Test Member') {
  const response = (await post(apiSignUp, '/api/signup', { email, mName, password })) as Response;
  expect(response.status).toBe(200);
  return { email, password, cookie: sessionCookie(response)! };
}

async function signIn(email: string, password: string, ip = uniqueIp()) {
  return (await post(apiSignIn, '/api/signin', { email, password }, { ip })) as Response;
}

/** Whether a session cookie still signs its holder in (the profile page answers or redirects). */
async function cookieWorks(cookie: string | null) {
  const result = await settle(get(profileLoader, '/profile', { cookie }));
  return !(result instanceof Response);
}

async function requestReset(email: string) {
  const before = (await emailsTo(email)).length;
  const r = await json(await post(apiForgot, '/api/forgot', { email }));
  expect(r.status).toBe(200);
  // Other mail to the address (a notice that its email is changing) may be written meanwhile.
  const resetMail = async () =>
    (await emailsTo(email))
      .slice(before)
      .filter((mail) => mail.html?.includes('/reset-password/'))
      .at(-1);
  await vi.waitFor(async () => expect(await resetMail()).toBeDefined(), { timeout: 10_000 });
  return resetTokenFrom((await resetMail())!.html!);
}

function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

// Rate limits fail open while Redis is away; these tests need it connected.
beforeAll(() => waitForRedis(10_000));

afterEach(() => {
  vi.useRealTimers();
});

// Each sign-in runs argon2id on purpose; give the loops room on a busy machine.
const SLOW = 240_000;

describe('sign up', () => {
  it('creates a free member with a hashed password, signs in and sends the welcome email', async () => {
    const email = uniqueEmail();
    const response = (await post(apiSignUp, '/api/signup', {
      email,
      mName: 'Ada',
      password: PASSWORD,
      type: 'yearly',
    })) as Response;
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ success: true, message: 'Account created successfully' });
    const stored = (await getUserByEmail(email))!;
    expect(body.userId).toBe(stored.id);
    expect(stored.plan).toBe('free');
    expect(stored.role).toBe('member');
    expect(stored.passwordHash).not.toContain(PASSWORD);
    expect(stored.passwordHash).toMatch(/^\$argon2id\$/);

    const setCookie = response.headers.get('Set-Cookie')!;
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(await cookieWorks(sessionCookie(response))).toBe(true);

    const [welcome] = await emailsTo(email);
    expect(welcome?.subject).toBe('Welcome to CourseGen');
    expect(welcome?.html).toContain('Ada');
  });

  it('refuses an email already in use, whatever its case', async () => {
    const { email } = await signUp();
    const r = await json(
      await post(apiSignUp, '/api/signup', {
        email: email.toUpperCase(),
        mName: 'Copy',
        password: PASSWORD,
      }),
    );
    expect(r).toMatchObject({
      status: 409,
      body: { success: false, message: 'An account with this email already exists' },
    });
  });

  it('gives the spec messages for missing fields and short passwords', async () => {
    expect(await json(await post(apiSignUp, '/api/signup', { email: 'a@b.co' }))).toMatchObject({
      status: 400,
      body: { success: false, message: 'Please fill in all required fields' },
    });
    const short = await json(
      await post(apiSignUp, '/api/signup', { email: 'a@b.co', mName: 'A', password: '12345678' }),
    );
    expect(short.body.message).toBe('Password should be at least 9 characters');
    expect(await getUserByEmail('a@b.co')).toBeUndefined();
  });
});

describe('sign in and sessions', () => {
  it('returns userData without any secret and sets the session cookie', async () => {
    const { email } = await signUp(uniqueEmail(), PASSWORD, 'Grace');
    const response = await signIn(email.toUpperCase(), PASSWORD);
    const body = (await response.json()) as { userData: Record<string, unknown> };
    expect(body).toMatchObject({ success: true, message: 'SignIn successful' });
    expect(Object.keys(body.userData).sort()).toEqual(['_id', 'email', 'mName', 'type']);
    expect(body.userData).toMatchObject({ email, mName: 'Grace', type: 'free' });
    expect(await cookieWorks(sessionCookie(response))).toBe(true);
  });

  it('answers a wrong password and an unknown email alike', async () => {
    const { email } = await signUp();
    const wrong = await json(await signIn(email, 'not-the-password'));
    const unknown = await json(await signIn(uniqueEmail('nobody'), PASSWORD));
    expect(wrong).toMatchObject({
      status: 401,
      body: { success: false, message: 'Invalid email or password' },
    });
    expect(unknown).toEqual(wrong);
  });

  it('ends the session on the server at logout', async () => {
    const { cookie } = await signUp();
    expect(await cookieWorks(cookie)).toBe(true);
    const response = (await post(logoutAction, '/logout', {}, { cookie, as: 'form' })) as Response;
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toBe('/signin');
    expect(response.headers.getSetCookie().join('\n')).toMatch(/__session=;/);
    // The same cookie, replayed, no longer signs anyone in.
    expect(await cookieWorks(cookie)).toBe(false);
  });

  it('ends every session when the password changes on the profile, and starts a new one for this browser', async () => {
    const { email, cookie: first } = await signUp();
    const second = sessionCookie(await signIn(email, PASSWORD))!;
    const earlierResetToken = await requestReset(email);
    const response = (await post(
      apiProfile,
      '/api/profile',
      { mName: 'Renamed', email, password: 'brand-new-pass-1', currentPassword: PASSWORD },
      { cookie: second },
    )) as Response;
    expect(await response.clone().json()).toEqual({ success: true, message: 'Profile Updated' });
    const fresh = sessionCookie(response);
    expect(await cookieWorks(first)).toBe(false);
    expect(await cookieWorks(second)).toBe(false);
    expect(await cookieWorks(fresh)).toBe(true);
    expect((await signIn(email, PASSWORD)).status).toBe(401);
    expect((await signIn(email, 'brand-new-pass-1')).status).toBe(200);
    expect((await emailsTo(email)).map((m) => m.subject)).toContain(
      'Your CourseGen password was updated',
    );
    // A reset link sent before the change no longer works after it.
    const reset = await json(
      await post(apiReset, '/api/reset-password', {
        password: 'another-pass-22',
        token: earlierResetToken,
      }),
    );
    expect(reset.status).toBe(400);
    expect((await signIn(email, 'brand-new-pass-1')).status).toBe(200);
  });

  it('sends visitors to /signin and back, and members away from the visitor pages', async () => {
    const redirect = (await settle(get(homeLoader, '/home'))) as Response;
    expect(redirect.status).toBe(302);
    expect(redirect.headers.get('Location')).toBe('/signin?redirectTo=%2Fhome');

    const { email, cookie } = await signUp();
    const signedIn = (await settle(
      post(
        signInAction,
        '/signin?redirectTo=%2Fprofile',
        { email, password: PASSWORD, redirectTo: '/profile' },
        { as: 'form' },
      ),
    )) as Response;
    expect(signedIn.headers.get('Location')).toBe('/profile');
    const offsite = (await settle(
      post(
        signInAction,
        '/signin',
        { email, password: PASSWORD, redirectTo: '//evil.example/' },
        { as: 'form' },
      ),
    )) as Response;
    expect(offsite.headers.get('Location')).toBe('/home');

    for (const [loader, path] of [
      [signInLoader, '/signin'],
      [signUpLoader, '/signup'],
      [forgotLoader, '/forgot'],
      [resetLoader, '/reset-password/abc'],
    ] as const) {
      const away = (await settle(
        get(loader, path, { cookie, params: { token: 'abc' } }),
      )) as Response;
      expect(away.status, path).toBe(302);
      expect(away.headers.get('Location'), path).toBe('/home');
    }
  });
});

describe('profile', () => {
  it('moves to a new email only when the link sent there is followed; the old address is told', async () => {
    const { email, cookie } = await signUp();
    const other = await signUp();
    const taken = await json(
      await post(
        apiProfile,
        '/api/profile',
        { mName: 'X', email: other.email, currentPassword: PASSWORD },
        { cookie },
      ),
    );
    expect(taken).toMatchObject({
      status: 409,
      body: { success: false, message: 'This email is already in use' },
    });

    const newEmail = uniqueEmail('moved');
    const asked = pageResult(
      await post(
        profileAction,
        '/profile',
        { mName: 'Mover', email: newEmail.toUpperCase(), password: '', currentPassword: PASSWORD },
        { cookie, as: 'form' },
      ),
    );
    expect(asked).toEqual({
      status: 200,
      data: {
        success: true,
        message: `Profile Updated. To change your email, follow the link we sent to ${newEmail}`,
      },
    });
    // Nothing moved yet: the account keeps its address and can still sign in with it.
    expect(await getUserByEmail(newEmail)).toBeUndefined();
    expect((await getUserByEmail(email))!.name).toBe('Mover');
    expect((await signIn(email, PASSWORD)).status).toBe(200);
    expect(
      ((await get(profileLoader, '/profile', { cookie })) as { pendingEmail: string | null })
        .pendingEmail,
    ).toBe(newEmail);
    expect((await emailsTo(email)).at(-1)!.subject).toBe('Your CourseGen email is about to change');
    expect((await emailsTo(email)).at(-1)!.html).toContain(newEmail);
    const confirmation = (await emailsTo(newEmail)).at(-1)!;
    expect(confirmation.subject).toBe('Confirm your new CourseGen email address');
    const token = verifyTokenFrom(confirmation.html!);
    // Only the token's hash is stored.
    const rows = await database().select().from(tables.emailChangeTokens);
    expect(rows.some((r) => r.tokenHash === token)).toBe(false);
    expect(rows.some((r) => r.tokenHash === hashToken(token))).toBe(true);

    // Opening the link shows the address and changes nothing; the POST confirms, without a session.
    expect(await get(verifyLoader, `/verify-email/${token}`, { params: { token } })).toEqual({
      newEmail,
      message: null,
    });
    expect(await getUserByEmail(newEmail)).toBeUndefined();
    const confirmed = (await post(
      verifyAction,
      `/verify-email/${token}`,
      {},
      { as: 'form', params: { token } },
    )) as Response;
    expect(confirmed.status).toBe(302);
    expect(confirmed.headers.get('Location')).toBe('/profile');
    expect((await getUserByEmail(newEmail))!.name).toBe('Mover');
    expect(await getUserByEmail(email)).toBeUndefined();
    expect(await cookieWorks(cookie)).toBe(true);
    expect((await signIn(newEmail, PASSWORD)).status).toBe(200);
    expect((await emailsTo(email)).at(-1)!.subject).toBe('Your CourseGen account was updated');
    expect((await emailsTo(newEmail)).at(-1)!.subject).toBe('Your CourseGen account was updated');

    // The link works once.
    const again = pageResult(
      await post(verifyAction, `/verify-email/${token}`, {}, { as: 'form', params: { token } }),
    );
    expect(again).toMatchObject({
      status: 400,
      data: { success: false, message: 'This email confirmation link is invalid or has expired' },
    });
    expect(await get(verifyLoader, `/verify-email/${token}`, { params: { token } })).toEqual({
      newEmail: null,
      message: 'This email confirmation link is invalid or has expired',
    });
  });

  it('refuses a confirmation link after a day, or once another account took the address', async () => {
    const { email, cookie } = await signUp();
    const askFor = async (newEmail: string) => {
      const r = await json(
        await post(
          apiProfile,
          '/api/profile',
          { mName: 'M', email: newEmail, currentPassword: PASSWORD },
          { cookie },
        ),
      );
      expect(r.status).toBe(200);
      return verifyTokenFrom((await emailsTo(newEmail)).at(-1)!.html!);
    };
    const confirm = async (token: string) =>
      pageResult(
        await post(verifyAction, `/verify-email/${token}`, {}, { as: 'form', params: { token } }),
      );

    const late = await askFor(uniqueEmail('late'));
    vi.useFakeTimers({ now: Date.now() + 24 * 60 * 60 * 1000 + 60_000, toFake: ['Date'] });
    expect((await confirm(late)).status).toBe(400);
    vi.useRealTimers();

    const contested = uniqueEmail('contested');
    const token = await askFor(contested);
    await signUp(contested);
    expect(await confirm(token)).toMatchObject({
      status: 409,
      data: { success: false, message: 'This email is already in use' },
    });
    expect(await getUserByEmail(email)).toBeDefined();
  });

  it('lets only the newest email request stand', async () => {
    const { email, cookie } = await signUp();
    const ask = async (newEmail: string) => {
      await post(
        apiProfile,
        '/api/profile',
        { mName: 'M', email: newEmail, currentPassword: PASSWORD },
        { cookie },
      );
      return verifyTokenFrom((await emailsTo(newEmail)).at(-1)!.html!);
    };
    const first = await ask(uniqueEmail('first'));
    const second = uniqueEmail('second');
    const secondToken = await ask(second);
    const refused = pageResult(
      await post(verifyAction, '/verify-email/x', {}, { as: 'form', params: { token: first } }),
    );
    expect(refused.status).toBe(400);
    await post(verifyAction, '/verify-email/x', {}, { as: 'form', params: { token: secondToken } });
    expect(await getUserByEmail(second)).toBeDefined();
    expect(await getUserByEmail(email)).toBeUndefined();
  });

  it('limits guesses of the current password per account', async () => {
    const { email, cookie } = await signUp();
    const attempt = (currentPassword: string) =>
      post(
        apiProfile,
        '/api/profile',
        { mName: 'M', email, password: 'brand-new-pass-1', currentPassword },
        { cookie },
      );
    for (let i = 0; i < 10; i += 1)
      expect(((await attempt(`guess-${i}`)) as Response).status).toBe(403);
    const limited = await json(await attempt(PASSWORD));
    expect(limited.status).toBe(429);
    expect(limited.body.message).toMatch(/^Too many attempts/);
    expect((await signIn(email, PASSWORD)).status).toBe(200);
  });

  it("refuses another user's uid and changes nothing", async () => {
    const victim = await signUp(uniqueEmail('victim'), PASSWORD, 'Victim');
    const victimId = (await getUserByEmail(victim.email))!.id;
    const attacker = await signUp(uniqueEmail('attacker'), PASSWORD, 'Attacker');
    const { users } = tables;
    const before = await first(database().select().from(users).where(eq(users.id, victimId)));

    const r = await json(
      await post(
        apiProfile,
        '/api/profile',
        { uid: victimId, mName: 'Owned', email: uniqueEmail('owned'), password: 'owned-password' },
        { cookie: attacker.cookie },
      ),
    );
    expect(r).toMatchObject({
      status: 403,
      body: { success: false, message: 'You can only change your own profile' },
    });
    expect(await first(database().select().from(users).where(eq(users.id, victimId)))).toEqual(
      before,
    );
    expect((await getUserByEmail(attacker.email))!.name).toBe('Attacker');

    const own = (await getUserByEmail(attacker.email))!.id;
    const ok = await json(
      await post(
        apiProfile,
        '/api/profile',
        { uid: own, mName: 'Still Me', email: attacker.email },
        { cookie: attacker.cookie },
      ),
    );
    expect(ok.status).toBe(200);
    expect((await getUserByEmail(attacker.email))!.name).toBe('Still Me');
  });

  it('needs a session', async () => {
    expect(
      await json(await post(apiProfile, '/api/profile', { mName: 'A', email: uniqueEmail() })),
    ).toMatchObject({ status: 401, body: { success: false, message: 'Please sign in' } });
  });
});

describe('forgot and reset password', () => {
  it('answers the same whether or not the account exists, and mails only real accounts', async () => {
    const { email } = await signUp();
    const nobody = uniqueEmail('nobody');
    const known = await json(
      await post(apiForgot, '/api/forgot', {
        email,
        name: 'x',
        company: '<b>Evil Corp</b>',
        logo: 'https://evil.example/logo.png',
      }),
    );
    const unknown = await json(await post(apiForgot, '/api/forgot', { email: nobody }));
    expect(known).toEqual(unknown);
    expect(known.body.success).toBe(true);

    await vi.waitFor(async () => expect((await emailsTo(email)).length).toBe(2), {
      timeout: 10_000,
    });
    const mail = (await emailsTo(email)).at(-1)!;
    expect(mail.subject).toBe('Reset your CourseGen password');
    expect(mail.html).not.toContain('Evil Corp');
    expect(mail.html).not.toContain('evil.example');
    expect(mail.html).toMatch(/http:\/\/localhost:\d+\/reset-password\/[A-Za-z0-9_-]{43}/);
    expect(await emailsTo(nobody)).toHaveLength(0);

    // Only the token's hash is stored.
    const token = resetTokenFrom(mail.html!);
    const rows = await database().select().from(tables.passwordResetTokens);
    expect(rows.some((r) => r.tokenHash === token)).toBe(false);
    expect(rows.some((r) => r.tokenHash === hashToken(token))).toBe(true);
  });

  it('takes as long to answer for an unknown address as for a member (medians within 1.2×)', async () => {
    // Issue 31, item 1: a member's address answered in 6.2 ms, an unknown one in 3.4 ms.
    const known: string[] = [];
    for (let i = 0; i < 20; i += 1) known.push((await signUp()).email);
    const unknown = Array.from({ length: 20 }, () => uniqueEmail('nobody'));
    const answers = new Set<string>();
    /**
     * The route's whole answer, each request from an address of its own: the wall-clock time a
     * client sees and the CPU time this process spent on it (which a machine shared with other
     * work does not blur), then a pause, as between two clients.
     */
    const timed = async (email: string) => {
      const started = performance.now();
      const cpuAtStart = process.cpuUsage();
      const response = (await post(apiForgot, '/api/forgot', { email })) as Response;
      answers.add(`${response.status} ${await response.text()}`);
      const cpu = process.cpuUsage(cpuAtStart);
      const wallMs = performance.now() - started;
      await new Promise((resolve) => setTimeout(resolve, 20));
      return { wallMs, cpuMs: (cpu.user + cpu.system) / 1000 };
    };
    const ratio = (a: number[], b: number[]) =>
      Math.max(median(a), median(b)) / Math.min(median(a), median(b));
    // One of each first, untimed (the first call of a path warms it up).
    await timed(uniqueEmail('warm-up'));
    await timed(known[0]!);
    // Wall-clock time on a machine shared with other work swings either way by more than the
    // leak measured (identical requests' medians 1.0-2.0x apart at load average 20 on 2 cores),
    // so it is held to 1.2x only on a machine with a core to spare, in up to three rounds. The
    // CPU time this process spends on each answer does not blur, and is held to 1.2x in every
    // round: on main it was 1.7-1.9x (1.3 ms more for a member's address).
    const overloaded = os.loadavg()[0]! > os.availableParallelism();
    const rounds: string[] = [];
    for (let round = 0; round < 3; round += 1) {
      const wall = { known: [] as number[], unknown: [] as number[] };
      const cpu = { known: [] as number[], unknown: [] as number[] };
      // 40 requests interleaved A B B A, so neither kind always follows the other.
      for (let pair = 0; pair < 20; pair += 1) {
        const kinds = pair % 2 ? (['unknown', 'known'] as const) : (['known', 'unknown'] as const);
        for (const kind of kinds) {
          const sample = await timed((kind === 'known' ? known : unknown)[pair]!);
          wall[kind].push(sample.wallMs);
          cpu[kind].push(sample.cpuMs);
        }
      }
      const wallRatio = ratio(wall.known, wall.unknown);
      const cpuRatio = ratio(cpu.known, cpu.unknown);
      rounds.push(
        `round ${round + 1}: wall-clock median known ${median(wall.known).toFixed(2)} ms, unknown ` +
          `${median(wall.unknown).toFixed(2)} ms (${wallRatio.toFixed(2)}x); CPU known ` +
          `${median(cpu.known).toFixed(2)} ms, unknown ${median(cpu.unknown).toFixed(2)} ms ` +
          `(${cpuRatio.toFixed(2)}x); load average ${os.loadavg()[0]!.toFixed(1)}`,
      );
      console.log(`forgot-password timing, ${rounds.at(-1)}`);
      expect(cpuRatio, rounds.join('\n')).toBeLessThan(1.2);
      if (overloaded || wallRatio < 1.2) break;
      expect(round, rounds.join('\n')).toBeLessThan(2);
    }
    // The same answer for both, and every member still gets the link (one per round, at least).
    expect([...answers]).toEqual([`200 ${JSON.stringify({ success: true, message: RESET_SENT })}`]);
    const mailCounts = (emails: string[]) =>
      Promise.all(emails.map(async (email) => (await emailsTo(email)).length));
    await vi.waitFor(
      async () => expect((await mailCounts(known)).every((count) => count >= 2)).toBe(true),
      { timeout: 10_000 },
    );
    expect((await mailCounts(unknown)).some((count) => count > 0)).toBe(false);
  });

  it('resets once, ends every session, then refuses the used token', async () => {
    const { email, cookie } = await signUp();
    const token = await requestReset(email);

    const reset = await json(
      await post(apiReset, '/api/reset-password', { password: 'reset-password-1', token }),
    );
    expect(reset).toEqual({
      status: 200,
      body: { success: true, message: 'Password has been reset successfully', email },
    });
    expect(await cookieWorks(cookie)).toBe(false);
    expect((await signIn(email, PASSWORD)).status).toBe(401);
    expect((await signIn(email, 'reset-password-1')).status).toBe(200);

    const again = await json(
      await post(apiReset, '/api/reset-password', { password: 'another-password-2', token }),
    );
    expect(again).toMatchObject({ status: 400, body: { success: false, message: BAD_TOKEN } });
    expect((await signIn(email, 'reset-password-1')).status).toBe(200);
  });

  it('spends older links too when one of them is used', async () => {
    const { email } = await signUp();
    const older = await requestReset(email);
    const newer = await requestReset(email);
    const used = await json(
      await post(apiReset, '/api/reset-password', { password: 'reset-password-1', token: newer }),
    );
    expect(used.status).toBe(200);
    const r = await json(
      await post(apiReset, '/api/reset-password', { password: 'reset-password-2', token: older }),
    );
    expect(r.status).toBe(400);
  });

  it('stops every reset link and pending email change when the password changes on the profile', async () => {
    const { email, cookie } = await signUp();
    const resetToken = await requestReset(email);
    const moved = uniqueEmail('moved');
    await post(
      apiProfile,
      '/api/profile',
      { mName: 'M', email: moved, currentPassword: PASSWORD },
      { cookie },
    );
    const verifyToken = verifyTokenFrom((await emailsTo(moved)).at(-1)!.html!);
    const changed = (await post(
      apiProfile,
      '/api/profile',
      { mName: 'M', email, password: 'brand-new-pass-1', currentPassword: PASSWORD },
      { cookie },
    )) as Response;
    expect(changed.status).toBe(200);

    const reset = await json(
      await post(apiReset, '/api/reset-password', {
        password: 'attacker-pass-1',
        token: resetToken,
      }),
    );
    expect(reset).toMatchObject({ status: 400, body: { success: false, message: BAD_TOKEN } });
    const confirm = pageResult(
      await post(
        verifyAction,
        '/verify-email/x',
        {},
        { as: 'form', params: { token: verifyToken } },
      ),
    );
    expect(confirm.status).toBe(400);
    expect(await getUserByEmail(moved)).toBeUndefined();
    expect((await signIn(email, 'brand-new-pass-1')).status).toBe(200);
  });

  it('stops a pending email change when the password is reset', async () => {
    const { email, cookie } = await signUp();
    const moved = uniqueEmail('hijack');
    await post(
      apiProfile,
      '/api/profile',
      { mName: 'M', email: moved, currentPassword: PASSWORD },
      { cookie },
    );
    const verifyToken = verifyTokenFrom((await emailsTo(moved)).at(-1)!.html!);
    const token = await requestReset(email);
    expect(
      (await post(apiReset, '/api/reset-password', {
        password: 'reset-password-1',
        token,
      })) as Response,
    ).toHaveProperty('status', 200);
    const confirm = pageResult(
      await post(
        verifyAction,
        '/verify-email/x',
        {},
        { as: 'form', params: { token: verifyToken } },
      ),
    );
    expect(confirm.status).toBe(400);
    expect(await getUserByEmail(email)).toBeDefined();
    expect(await cookieWorks(cookie)).toBe(false);
  });

  it('refuses a token after one hour', async () => {
    const { email } = await signUp();
    const token = await requestReset(email);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 59 * 60 * 1000 });
    const page = (await get(resetLoader, `/reset-password/${token}`, { params: { token } })) as {
      usable: boolean;
    };
    expect(page.usable).toBe(true);
    vi.setSystemTime(Date.now() + 2 * 60 * 1000);
    const late = (await get(resetLoader, `/reset-password/${token}`, { params: { token } })) as {
      usable: boolean;
      message: string;
    };
    expect(late).toEqual({ usable: false, message: BAD_TOKEN });
    const r = await json(
      await post(apiReset, '/api/reset-password', { password: 'reset-password-1', token }),
    );
    expect(r).toMatchObject({ status: 400, body: { success: false, message: BAD_TOKEN } });
    vi.useRealTimers();
    expect((await signIn(email, PASSWORD)).status).toBe(200);
  });
});

describe('rate limits', () => {
  it(
    'locks an account at an address after 10 failed sign-ins there, even for the right password',
    async () => {
      const { email } = await signUp();
      const attacker = uniqueIp();
      for (let i = 0; i < 10; i += 1) {
        expect((await signIn(email, `wrong-${i}`, attacker)).status).toBe(401);
      }
      const locked = await signIn(email, PASSWORD, attacker);
      expect(locked.status).toBe(429);
      expect(Number(locked.headers.get('Retry-After'))).toBeGreaterThan(0);
      expect(await locked.json()).toMatchObject({
        success: false,
        message: 'Too many attempts. Please try again in 15 minutes.',
      });
      // The member, elsewhere, is not locked out by a stranger's guesses.
      expect((await signIn(email, PASSWORD, uniqueIp())).status).toBe(200);
    },
    SLOW,
  );

  it(
    'caps failed sign-ins per account from rotating addresses; the owner keeps a known browser and a reset',
    async () => {
      // Issue 31, item 4: 1,683 guesses at one account from changing addresses, none throttled.
      const { email } = await signUp();
      const signInWith = (password: string, cookie: string | null = null) =>
        post(apiSignIn, '/api/signin', { email, password }, { ip: uniqueIp(), cookie });
      // The owner's browser signed in before: it carries the signed device cookie.
      const owner = (await signInWith(PASSWORD)) as Response;
      const device = owner.headers
        .getSetCookie()
        .find((c) => c.startsWith('__device='))!
        .split(';')[0]!;
      expect(device).toBeTruthy();
      const pausedMail = async () =>
        (await emailsTo(email)).filter((mail) => mail.subject.includes('Many failed sign-ins'));

      for (let i = 0; i < 20; i += 1)
        expect(((await signInWith(`guess-${i}`)) as Response).status).toBe(401);
      // The 21st attempt of the hour from a new address is refused, the right password too.
      const paused = (await signInWith(PASSWORD)) as Response;
      expect(paused.status).toBe(429);
      expect(Number(paused.headers.get('Retry-After'))).toBeGreaterThan(0);
      expect(((await paused.json()) as { message: string }).message).toMatch(
        /^Too many failed sign-ins to this account\. Sign in from a browser you have used before, reset your password, or try again in \d+ minutes?\.$/,
      );
      expect(((await signInWith('guess-more')) as Response).status).toBe(429);
      // The owner is told, once.
      await vi.waitFor(async () => expect(await pausedMail()).toHaveLength(1), { timeout: 10_000 });
      expect((await pausedMail())[0]!.html).toContain('/forgot');

      // The browser that signed in before still signs in, from yet another address.
      expect(((await signInWith(PASSWORD, device)) as Response).status).toBe(200);
      // Forged or foreign device cookies count for nothing.
      const forged = `__device=${Buffer.from(JSON.stringify([(await getUserByEmail(email))!.id])).toString('base64')}`;
      expect(((await signInWith(PASSWORD, forged)) as Response).status).toBe(429);

      // A reset opens sign-ins from new devices again.
      const token = await requestReset(email);
      expect(
        (
          (await post(apiReset, '/api/reset-password', {
            password: 'brand-new-pass-1',
            token,
          })) as Response
        ).status,
      ).toBe(200);
      expect(((await signInWith('brand-new-pass-1')) as Response).status).toBe(200);
      expect(await pausedMail()).toHaveLength(1);
    },
    SLOW,
  );

  it(
    'caps an address with no account the same way, and mails no one',
    async () => {
      const email = uniqueEmail('nobody');
      const statuses: number[] = [];
      for (let i = 0; i < 21; i += 1)
        statuses.push(
          ((await post(apiSignIn, '/api/signin', { email, password: `guess-${i}` })) as Response)
            .status,
        );
      expect(statuses).toEqual([...Array(20).fill(401), 429]);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(await emailsTo(email)).toHaveLength(0);
    },
    SLOW,
  );

  it(
    'counts only failures: a good sign-in forgets the earlier ones',
    async () => {
      const { email } = await signUp();
      const ip = uniqueIp();
      for (let round = 0; round < 2; round += 1) {
        for (let i = 0; i < 9; i += 1) expect((await signIn(email, 'wrong', ip)).status).toBe(401);
        expect((await signIn(email, PASSWORD, ip)).status).toBe(200);
      }
    },
    SLOW,
  );

  it(
    'limits failed sign-ins per address across accounts',
    async () => {
      const ip = uniqueIp();
      for (let i = 0; i < 50; i += 1) {
        expect((await signIn(uniqueEmail('guess'), 'wrong-password', ip)).status).toBe(401);
      }
      const { email } = await signUp();
      expect((await signIn(email, PASSWORD, ip)).status).toBe(429);
      expect((await signIn(email, PASSWORD, uniqueIp())).status).toBe(200);
    },
    SLOW,
  );

  it(
    'limits sign-ups per address',
    async () => {
      process.env.SIGNUPS_PER_IP_PER_HOUR = '3';
      resetEnvForTests();
      try {
        const ip = uniqueIp();
        const signUpFrom = (email: string) =>
          post(apiSignUp, '/api/signup', { email, mName: 'M', password: PASSWORD }, { ip });
        for (let i = 0; i < 3; i += 1) {
          expect(((await signUpFrom(uniqueEmail())) as Response).status).toBe(200);
        }
        const email = uniqueEmail();
        const limited = await json(await signUpFrom(email));
        expect(limited.status).toBe(429);
        expect(limited.body.message).toMatch(/^Too many attempts/);
        expect(await getUserByEmail(email)).toBeUndefined();
        expect(await emailsTo(email)).toHaveLength(0);
        expect(
          (
            (await post(apiSignUp, '/api/signup', {
              email,
              mName: 'M',
              password: PASSWORD,
            })) as Response
          ).status,
        ).toBe(200);
      } finally {
        delete process.env.SIGNUPS_PER_IP_PER_HOUR;
        resetEnvForTests();
      }
    },
    SLOW,
  );

  it('asks for the current password before changing the email or password', async () => {
    const { email, cookie } = await signUp();
    const change = (fields: Record<string, string>) =>
      post(apiProfile, '/api/profile', { mName: 'Me', email, ...fields }, { cookie }).then(json);
    expect(await change({ password: 'taken-over-pass' })).toMatchObject({
      status: 400,
      body: {
        success: false,
        message: 'Please enter your current password to change your email or password',
      },
    });
    expect(
      await change({ email: uniqueEmail('thief'), currentPassword: 'guessed-wrong' }),
    ).toMatchObject({
      status: 403,
      body: { success: false, message: 'Your current password is incorrect' },
    });
    expect((await signIn(email, PASSWORD)).status).toBe(200);
    expect((await emailsTo(email)).map((m) => m.subject)).toEqual(['Welcome to CourseGen']);
    // A name alone needs no password.
    expect((await change({ mName: 'Just A Name' })).status).toBe(200);
    expect((await getUserByEmail(email))!.name).toBe('Just A Name');
  });

  it('limits how often a member can ask for a new email', async () => {
    const { cookie } = await signUp();
    const ask = async (email: string) =>
      json(
        await post(
          apiProfile,
          '/api/profile',
          { mName: 'M', email, currentPassword: PASSWORD },
          { cookie },
        ),
      );
    for (let i = 0; i < 5; i += 1) expect((await ask(uniqueEmail())).status).toBe(200);
    const target = uniqueEmail();
    const limited = await ask(target);
    expect(limited.status).toBe(429);
    expect(await emailsTo(target)).toHaveLength(0);
  });

  it('limits how many addresses sign-up and an email change can tell are taken', async () => {
    process.env.SIGNUPS_PER_IP_PER_HOUR = '3';
    resetEnvForTests();
    try {
      const taken = await Promise.all([signUp(), signUp(), signUp(), signUp(), signUp(), signUp()]);
      const ip = uniqueIp();
      const probe = async (email: string) =>
        json(
          await post(apiSignUp, '/api/signup', { email, mName: 'M', password: PASSWORD }, { ip }),
        );
      for (const { email } of taken.slice(0, 3)) expect((await probe(email)).status).toBe(409);
      const limited = await probe(taken[3]!.email);
      expect(limited.status).toBe(429);
      expect(limited.body.message).toMatch(/^Too many attempts/);

      const { cookie } = await signUp();
      const ask = async (email: string) =>
        json(
          await post(
            apiProfile,
            '/api/profile',
            { mName: 'M', email, currentPassword: PASSWORD },
            { cookie },
          ),
        );
      for (const { email } of taken.slice(0, 5)) expect((await ask(email)).status).toBe(409);
      expect((await ask(taken[5]!.email)).status).toBe(429);
    } finally {
      delete process.env.SIGNUPS_PER_IP_PER_HOUR;
      resetEnvForTests();
    }
  });

  it('limits reset emails per account and per address', async () => {
    const email = uniqueEmail();
    for (let i = 0; i < 5; i += 1) {
      expect(((await post(apiForgot, '/api/forgot', { email })) as Response).status).toBe(200);
    }
    const limited = await json(await post(apiForgot, '/api/forgot', { email }));
    expect(limited.status).toBe(429);
    expect(limited.body.message).toMatch(/^Too many attempts/);

    const ip = uniqueIp();
    for (let i = 0; i < 20; i += 1) {
      const r = (await post(
        apiForgot,
        '/api/forgot',
        { email: uniqueEmail() },
        { ip },
      )) as Response;
      expect(r.status).toBe(200);
    }
    const r = (await post(apiForgot, '/api/forgot', { email: uniqueEmail() }, { ip })) as Response;
    expect(r.status).toBe(429);
  });

  it('limits failed password resets per address', async () => {
    const ip = uniqueIp();
    for (let i = 0; i < 20; i += 1) {
      const r = (await post(
        apiReset,
        '/api/reset-password',
        { password: 'whatever-pass', token: `guess-${i}` },
        { ip },
      )) as Response;
      expect(r.status).toBe(400);
    }
    const r = (await post(
      apiReset,
      '/api/reset-password',
      { password: 'whatever-pass', token: 'guess-x' },
      { ip },
    )) as Response;
    expect(r.status).toBe(429);
  });
});

describe('password hashes', () => {
  it('stores argon2id, and mails an older bcrypt account a reset link instead of signing it in', async () => {
    const { email } = await signUp();
    expect((await getUserByEmail(email))!.passwordHash).toMatch(/^\$argon2id\$/);

    const old = uniqueEmail('bcrypt');
    await createUser({ email: old, name: 'Old Timer', password: PASSWORD });
    const { users } = tables;
    // PASSWORD hashed by bcrypt (cost 4), as accounts made before argon2id (ADR 0006) keep it.
    const bcryptHash = '$2b$04$g1.h.dPYtOpDkRZkrhRTBe4eVH4yJspZpYJvmJ.3K0uI6aAHxNjnG';
    await database().update(users).set({ passwordHash: bcryptHash }).where(eq(users.email, old));
    const resetNeeded = {
      status: 401,
      body: {
        success: false,
        message:
          'The password of this account must be set again: we have emailed you a link to choose a new one',
      },
    };
    // The right password and a wrong one alike: bcrypt is no longer there to tell them apart.
    expect(await json(await signIn(old, PASSWORD))).toMatchObject(resetNeeded);
    expect(await json(await signIn(old, 'wrong-password-1'))).toMatchObject(resetNeeded);
    const resetMails = async () =>
      (await emailsTo(old)).filter((mail) => mail.html?.includes('/reset-password/'));
    // Each refused sign-in mails a link (within forgot-password's hourly cap): two here.
    await vi.waitFor(async () => expect(await resetMails()).toHaveLength(2), { timeout: 10_000 });
    const newest = (await resetMails()).sort((a, b) => b.id - a.id)[0]!;
    const token = resetTokenFrom(newest.html!);

    const reset = await json(
      await post(apiReset, '/api/reset-password', { password: 'a-new-password-1', token }),
    );
    expect(reset.status).toBe(200);
    expect((await getUserByEmail(old))!.passwordHash).toMatch(/^\$argon2id\$/);
    expect((await signIn(old, 'a-new-password-1')).status).toBe(200);
    expect((await signIn(old, PASSWORD)).status).toBe(401);
  });

  it('limits sign-ins per address whether they succeed or not', async () => {
    const { email } = await signUp();
    const ip = uniqueIp();
    const statuses: number[] = [];
    for (let i = 0; i < 51; i += 1) statuses.push((await signIn(email, PASSWORD, ip)).status);
    expect(statuses.slice(0, 50)).toEqual(Array(50).fill(200));
    expect(statuses[50]).toBe(429);
  });
});

describe('roles', () => {
  it('keeps members out of admin pages and admin API checks', async () => {
    const anonymous = (await settle(get(outboxLoader, '/admin/outbox'))) as Response;
    expect(anonymous.headers.get('Location')).toBe('/signin?redirectTo=%2Fadmin%2Foutbox');

    const member = await signUp();
    const redirected = (await settle(
      get(outboxLoader, '/admin/outbox', { cookie: member.cookie }),
    )) as Response;
    expect(redirected.status).toBe(302);
    expect(redirected.headers.get('Location')).toBe('/home');
    const memberApi = (await settle(
      requireApiAdmin(
        new Request('http://localhost/api/x', { headers: { Cookie: member.cookie } }),
      ),
    )) as Response;
    expect(memberApi.status).toBe(403);
    const anonApi = (await settle(
      requireApiAdmin(new Request('http://localhost/api/x')),
    )) as Response;
    expect(anonApi.status).toBe(401);

    const adminEmail = uniqueEmail('admin');
    await createUser({ email: adminEmail, name: 'Boss', password: PASSWORD, role: 'main_admin' });
    const adminCookie = sessionCookie(await signIn(adminEmail, PASSWORD));
    const page = (await get(outboxLoader, '/admin/outbox', { cookie: adminCookie })) as {
      messages: unknown[];
    };
    expect(Array.isArray(page.messages)).toBe(true);
  });

  it("shows an admin the reset links only of the admin's own mail", async () => {
    const member = await signUp();
    const memberToken = await requestReset(member.email);
    const adminEmail = uniqueEmail('admin');
    await createUser({ email: adminEmail, name: 'Boss', password: PASSWORD, role: 'admin' });
    const adminCookie = sessionCookie(await signIn(adminEmail, PASSWORD));
    const adminToken = await requestReset(adminEmail);
    const read = async (to: string) => {
      const id = String((await emailsTo(to)).at(-1)!.id);
      return (await get(outboxEmailLoader, `/admin/outbox/${id}`, {
        cookie: adminCookie,
        params: { id },
      })) as { html: string; text: string | null };
    };

    const others = await read(member.email);
    expect(others.html).not.toContain(memberToken);
    expect(others.text ?? '').not.toContain(memberToken);
    expect(others.html).toContain('/reset-password/•••');
    expect((await read(adminEmail)).html).toContain(`/reset-password/${adminToken}`);
  });

  it("masks another member's email confirmation link in the outbox", async () => {
    const member = await signUp();
    const moved = uniqueEmail('moved');
    await post(
      apiProfile,
      '/api/profile',
      { mName: 'M', email: moved, currentPassword: PASSWORD },
      { cookie: member.cookie },
    );
    const token = verifyTokenFrom((await emailsTo(moved)).at(-1)!.html!);
    const adminEmail = uniqueEmail('admin');
    await createUser({ email: adminEmail, name: 'Boss', password: PASSWORD, role: 'main_admin' });
    const adminCookie = sessionCookie(await signIn(adminEmail, PASSWORD));
    const id = String((await emailsTo(moved)).at(-1)!.id);
    const shown = (await get(outboxEmailLoader, `/admin/outbox/${id}`, {
      cookie: adminCookie,
      params: { id },
    })) as { html: string; text: string | null };
    expect(shown.html).not.toContain(token);
    expect(shown.text ?? '').not.toContain(token);
    expect(shown.html).toContain('/verify-email/•••');
  });

  it('drops the open mail relay /api/data', async () => {
    const { cookie } = await signUp();
    const r = await json(
      await post(
        apiData,
        '/api/data',
        { to: 'victim@example.com', subject: 'Hi', html: '<p>spam</p>' },
        { cookie },
      ),
    );
    expect(r.status).toBe(410);
    expect(r.body.success).toBe(false);
    expect(await emailsTo('victim@example.com')).toHaveLength(0);
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { approveMockPayPal } from '../../mocks/paypal';
import { writeKnobs } from '../../mocks/knobs';
import { get, post, settle } from '../support/account-routes';
import { leftoverRows, rowsMentioning, tableNames } from '../support/leftover-rows';
import { fillCourse, idsOfCourses } from '../support/member-data';
import { recordAudit } from '~/models/admin.server';
import { createUser, type User } from '~/models/users.server';
import * as apiPaypal from '~/routes/api/api.paypal';
import * as apiCourses from '~/routes/api/api.courses';
import * as profilePage from '~/routes/member/profile';
import * as successPage from '~/routes/member/success';
import * as usersPage from '~/routes/admin/users';
import { ACCOUNT_DELETION_MESSAGES } from '~/services/accounts/account-deletion.server';
import { signIn } from '~/services/accounts/sign-in.server';
import { signUp } from '~/services/accounts/sign-up.server';
import { createApiToken } from '~/services/api-tokens.server';
import { providerOf } from '~/services/billing/providers.server';
import { createCourseFromContent, startOutline } from '~/services/course-generation.server';
import { createSession } from '~/utils/auth.server';
import { database, first, tables } from '~/utils/database.server';
import { env } from '~/utils/env.server';
import { startVendorMocks } from '~/utils/mocks.server';

/**
 * Deleting an account (issue 38): the subscription is cancelled at the provider first, then no
 * row of the member is left in any table of the schema (read table by table, so a table added
 * later is covered), except the receipts' kept fields; the address can sign up again.
 */
beforeAll(() => {
  startVendorMocks();
});
afterEach(() => {
  fs.rmSync(path.join(env().DATA_DIR, 'mock-knobs.json'), { force: true });
});

const PASSWORD = 'long-enough-password';
let counter = 0;
async function member(role: User['role'] = 'member') {
  counter += 1;
  const user = await createUser({
    email: `Leaver-${counter}@Example.com`,
    name: `Leaver ${counter}`,
    password: PASSWORD,
    plan: 'free',
  });
  if (role !== 'member')
    await database().update(tables.users).set({ role }).where(eq(tables.users.id, user.id));
  const cookie = (await createSession(user.id)).split(';')[0]!;
  return { user: { ...user, role }, cookie };
}

/** A PayPal subscription approved on the demo provider and confirmed by /success: a receipt. */
async function subscribe(cookie: string) {
  const started = (await post(
    apiPaypal.action,
    '/api/paypal',
    {
      planId: 'monthly',
      email: 'billing@example.com',
      name: 'Ada',
      lastName: 'Lovelace',
      post: '10115',
      address: '1 Analytical Street',
      country: 'DE',
    },
    { cookie },
  )) as Response;
  expect(started.status).toBe(200);
  const { links } = (await started.json()) as { links: { rel: string; href: string }[] };
  const approve = new URL(links.find((link) => link.rel === 'approve')!.href);
  const returned = new URL((await approveMockPayPal(approve.searchParams.get('ba_token')!))!);
  const id = returned.searchParams.get('subscription_id')!;
  await get(successPage.loader, `/success?plan=monthly&method=paypal&subscription_id=${id}`, {
    cookie,
  });
  return id;
}

const deleteOwn = (cookie: string, password?: string) =>
  settle(
    post(
      profilePage.action,
      '/profile',
      password === undefined
        ? { intent: 'delete-account' }
        : { intent: 'delete-account', password },
      { cookie, as: 'form' },
    ),
  );

const userRow = (id: string) =>
  first(database().select().from(tables.users).where(eq(tables.users.id, id)));

/** What the rows are kept for after an account goes: the deletion notice to its address. */
const MAIL_TABLES = ['mail_queue', 'outbox_emails'];
/** The demo payment providers' own records stand for PayPal's and Razorpay's side. */
const PROVIDER_SIDE = ['demo_provider_records', 'demo_webhook_deliveries'];

async function everythingOf(user: User) {
  const courseIds = (
    await database()
      .select({ id: tables.courses.id })
      .from(tables.courses)
      .where(eq(tables.courses.userId, user.id))
  ).map((row) => row.id);
  const gone = await idsOfCourses(database(), tables, courseIds);
  const subscriptions = (
    await database()
      .select({ id: tables.subscriptions.id })
      .from(tables.subscriptions)
      .where(eq(tables.subscriptions.userId, user.id))
  ).map((row) => row.id);
  // Outlines not (yet) made into a course, and their documents, are the member's too.
  const outlines = (
    await database()
      .select({ id: tables.outlines.id })
      .from(tables.outlines)
      .where(eq(tables.outlines.userId, user.id))
  ).map((row) => row.id);
  const documents = (
    await database()
      .select({ id: tables.sourceDocuments.id })
      .from(tables.sourceDocuments)
      .where(eq(tables.sourceDocuments.userId, user.id))
  ).map((row) => row.id);
  gone.columns.outline_id = outlines;
  gone.columns.user_id = [user.id];
  gone.columns.actor_id = [user.id];
  gone.columns.updated_by = [user.id];
  gone.columns.subscription_id = subscriptions;
  gone.ids = {
    ...gone.ids,
    users: [user.id],
    subscriptions,
    outlines,
    source_documents: documents,
  };
  return gone;
}

describe('deleting one’s account', () => {
  it('cancels the subscription, leaves no row of the member, keeps the receipt bare, and frees the address', async () => {
    const { user, cookie } = await member();
    const subscriptionId = await subscribe(cookie);
    expect((await userRow(user.id))!.plan).toBe('monthly');
    const course = await createCourseFromContent(user, {
      mainTopic: 'Leaving',
      type: 'text',
      topics: [{ title: 'T', lessons: [{ title: 'L', theory: '<p>Text</p>' }] }],
    });
    if (!course.ok) throw new Error(course.message);
    await fillCourse(database(), tables, user.id, course.value);
    const material = await startOutline(user, {
      mainTopic: 'Own notes',
      subtopics: ['Notes'],
      topicCount: 5,
      type: 'text',
      material: { pasted: 'My own material about tides and the moon. '.repeat(10) },
    });
    expect(material.ok).toBe(true);
    const token = await createApiToken(user, { tokenName: 'script' });
    if (!token.ok) throw new Error(token.message);
    await database()
      .insert(tables.contacts)
      .values({
        id: `contact-${user.id}`,
        firstName: 'Ada',
        lastName: 'Lovelace',
        email: user.email.toUpperCase(),
        phone: '123',
        message: 'Hello',
      });
    const { user: admin } = await member('admin');
    await recordAudit(admin, 'add-admin', user.email.toLowerCase());
    const gone = await everythingOf(user);
    expect(gone.ids!.source_documents).toHaveLength(1);
    expect(await leftoverRows(database(), tables, gone)).not.toEqual([]);

    // Without the password, or with a wrong one, nothing happens.
    expect(await deleteOwn(cookie)).toMatchObject({
      data: { message: ACCOUNT_DELETION_MESSAGES.passwordNeeded },
      init: { status: 400 },
    });
    expect(await deleteOwn(cookie, 'not-the-password')).toMatchObject({ init: { status: 403 } });
    expect(await userRow(user.id)).toBeDefined();

    const deleted = (await deleteOwn(cookie, PASSWORD)) as Response;
    expect(deleted.status).toBe(302);
    expect(deleted.headers.get('Location')).toBe('/');
    expect(deleted.headers.get('Set-Cookie')).toMatch(/__session=;/);

    // Cancelled at the provider first.
    expect((await providerOf('paypal').fetchSubscription(subscriptionId)).status).toBe('cancelled');
    // Nothing of the member in any table of the schema...
    expect(tableNames(tables)).toContain('kept_receipts');
    expect(await leftoverRows(database(), tables, gone)).toEqual([]);
    const skip = [...MAIL_TABLES, ...PROVIDER_SIDE];
    expect(await rowsMentioning(database(), tables, user.email, skip)).toEqual([]);
    expect(await rowsMentioning(database(), tables, user.id, skip)).toEqual([]);
    // Nor what was typed at checkout (the receipt went to that address).
    for (const typed of ['billing@example.com', 'Lovelace', 'Analytical Street'])
      expect(await rowsMentioning(database(), tables, typed, PROVIDER_SIDE)).toEqual([]);
    // ...but the deletion notice to the address, and the receipt without the member.
    const mail = await database()
      .select()
      .from(tables.mailQueue)
      .where(eq(tables.mailQueue.to, user.email));
    expect(mail.map((row) => row.subject)).toEqual(['Your CourseGen account was deleted']);
    const kept = await database().select().from(tables.keptReceipts);
    expect(kept).toEqual([
      expect.objectContaining({
        provider: 'paypal',
        plan: 'monthly',
        amountCents: 800,
        country: 'DE',
      }),
    ]);
    const audit = await database().select().from(tables.adminAudit);
    expect(audit.map((row) => row.detail)).toContain('a deleted account');

    // Signed out everywhere: the session and the API token are gone.
    expect(await settle(get(profilePage.loader, '/profile', { cookie }))).toMatchObject({
      status: 302,
    });
    const tokenRequest = new Request('http://localhost/api/courses', {
      headers: { Authorization: `Bearer ${token.value.token}` },
    });
    const tokenAnswer = (await apiCourses.loader({
      request: tokenRequest,
      params: {},
      context: { clientIp: '10.9.9.9' },
    } as never)) as Response;
    expect(tokenAnswer.status).toBe(401);
    // The old password opens nothing; the address signs up as a new, empty account.
    expect(await signIn({ email: user.email, password: PASSWORD }, '10.1.2.3')).toMatchObject({
      ok: false,
    });
    const again = await signUp(
      { email: user.email, mName: 'New Me', password: 'another-password-1' },
      '10.1.2.4',
    );
    expect(again.ok).toBe(true);
    const fresh = await first(
      database().select().from(tables.users).where(eq(tables.users.email, user.email)),
    );
    expect(fresh!.id).not.toBe(user.id);
    expect(fresh!.plan).toBe('free');
    expect(
      await database().select().from(tables.courses).where(eq(tables.courses.userId, fresh!.id)),
    ).toEqual([]);
  });

  it('waits, and says so, when the provider cannot cancel the subscription', async () => {
    const { user, cookie } = await member();
    await subscribe(cookie);
    writeKnobs(env().DATA_DIR, { MOCK_PAYPAL_FAIL: 'cancel' });
    expect(await deleteOwn(cookie, PASSWORD)).toMatchObject({
      data: { message: ACCOUNT_DELETION_MESSAGES.cancelFailed },
      init: { status: 502 },
    });
    expect((await userRow(user.id))!.plan).toBe('monthly');
    const [subscription] = await database()
      .select()
      .from(tables.subscriptions)
      .where(eq(tables.subscriptions.userId, user.id));
    expect(subscription!.status).toBe('active');
  });

  it('refuses the only main admin, and lets an admin delete a member with an audit entry', async () => {
    const { user: main, cookie: mainCookie } = await member('main_admin');
    // The test database has no seeded admin: this is the only main admin.
    const mainAdmins = await database()
      .select()
      .from(tables.users)
      .where(eq(tables.users.role, 'main_admin'));
    expect(mainAdmins.map((row) => row.id)).toEqual([main.id]);
    expect(await deleteOwn(mainCookie, PASSWORD)).toMatchObject({
      data: { message: ACCOUNT_DELETION_MESSAGES.onlyMainAdmin },
      init: { status: 409 },
    });
    expect(await userRow(main.id)).toBeDefined();

    const { user: admin, cookie: adminCookie } = await member('admin');
    const { user: leaver } = await member();
    // The admin panel asks first: the Users page names the member to delete.
    const confirm = (await get(usersPage.loader, `/users?delete=${leaver.id}`, {
      cookie: adminCookie,
    })) as { confirmDelete: { email: string } | null };
    expect(confirm.confirmDelete?.email).toBe(leaver.email);
    // An admin may not delete the main admin, nor themself here.
    for (const target of [main.id, admin.id])
      expect(
        await post(
          usersPage.action,
          '/users',
          { intent: 'delete-member', userId: target },
          {
            cookie: adminCookie,
            as: 'form',
          },
        ),
      ).toMatchObject({ init: { status: 403 } });
    const done = await post(
      usersPage.action,
      '/users',
      { intent: 'delete-member', userId: leaver.id },
      { cookie: adminCookie, as: 'form' },
    );
    expect(done).toMatchObject({
      data: { success: true, message: ACCOUNT_DELETION_MESSAGES.deletedByAdmin },
    });
    expect(await userRow(leaver.id)).toBeUndefined();
    const audit = await database()
      .select()
      .from(tables.adminAudit)
      .where(eq(tables.adminAudit.action, 'delete-member'));
    expect(audit).toEqual([
      expect.objectContaining({ actorId: admin.id, actorEmail: admin.email, detail: leaver.id }),
    ]);
  });
});

import { createHmac } from 'node:crypto';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PAYPAL_WEBHOOK_ID, signedPayPalWebhook } from '../../mocks/paypal';
import { DEMO_RAZORPAY_WEBHOOK_SECRET } from '../../mocks/razorpay';
import { startApp, type RunningApp } from '../support/app-process';
import { insertCourse } from '../support/courses';
import { appDatabase, closeAppDatabases } from '../support/members';
import { QUIZ_SAME_OPTIONS_MESSAGE } from '~/domain/quiz-editing';
import { tables } from '~/utils/database.server';

/**
 * The spec's `/api` table (section 7) driven row by row, in its order, the way an API client
 * does: over HTTP against the production build, authenticated by personal API tokens. Each
 * answer is checked twice: against the spec's shape (field names, nesting, values; the
 * provider objects in the providers' own snake_case) and against the OpenAPI document the
 * server publishes, so the document is what the routes answer.
 */

/** The spec's rows in its order (razorpaycreate, which its clients call, where they call it). */
const SPEC_ROWS = [
  'POST /api/signin',
  'POST /api/signup',
  'POST /api/data',
  'POST /api/forgot',
  'POST /api/reset-password',
  'GET /api/courses',
  'POST /api/prompt',
  'POST /api/generate',
  'POST /api/image',
  'POST /api/yt',
  'POST /api/transcript',
  'POST /api/course',
  'POST /api/update',
  'POST /api/finish',
  'POST /api/sendcertificate',
  'POST /api/profile',
  'POST /api/paypal',
  'POST /api/razorpaycreate',
  'POST /api/paypaldetails',
  'POST /api/razorapydetails',
  'POST /api/sendreceipt',
  'POST /api/downloadreceipt',
  'POST /api/subscriptiondetail',
  'POST /api/paypalcancel',
  'POST /api/razorpaycancel',
  'POST /api/paypalupdate',
  'POST /api/paypalupdateuser',
  'POST /api/razorapypending',
  'POST /api/contact',
  'POST /api/dashboard',
  'GET /api/getusers',
  'GET /api/getcourses',
  'GET /api/getpaid',
  'GET /api/getcontact',
  'GET /api/getadmins',
  'POST /api/addadmin',
  'POST /api/removeadmin',
  'POST /api/saveadmin',
  'GET /api/policies',
];

const CLIENT_ORIGIN = 'http://client.example';
const AI_PER_HOUR = 6;
const MEMBER_TYPES = ['free', 'Monthly Plan', 'Yearly Plan'];

let app: RunningApp;
type Doc = {
  paths: Record<string, Record<string, { responses: Record<string, { content?: object }> }>>;
};
let document: Doc;
const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
const validators = new Map<string, ValidateFunction>();
/** Every request's "METHOD path", in order. */
const driven: string[] = [];
/** Every documented answer ("METHOD path status") met and matched. */
const matched = new Set<string>();

interface Answer {
  status: number;
  headers: Headers;
  // The tests read into the JSON they expect; its shape is checked against the document.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** The document's path a request path falls under (`/api/outline/{outlineId}` for `/api/outline/x`). */
function documentedPath(path: string): string {
  if (document.paths[path]) return path;
  return (
    Object.keys(document.paths).find((template) =>
      new RegExp(`^${template.replace(/\{[^/]+\}/g, '[^/]+')}$`).test(path),
    ) ?? path
  );
}

/** The document's schema for this answer (its status, else `default`), applied to the body. */
function expectDocumented(method: string, requestPath: string, answer: Answer) {
  const path = documentedPath(requestPath);
  const operation = document.paths[path]?.[method.toLowerCase()];
  expect(operation, `${method} ${path} is documented`).toBeDefined();
  // Every status an operation answers is in its document (ADR 0057): a failure never falls back
  // to `default`, and carries its machine-readable code.
  if (answer.status >= 400) {
    expect(
      operation!.responses[String(answer.status)],
      `${method} ${path} documents its ${answer.status}`,
    ).toBeDefined();
    if (typeof answer.body === 'object')
      expect(answer.body, `${method} ${path} ${answer.status} has a code`).toHaveProperty('code');
  }
  const status = operation!.responses[String(answer.status)] ? String(answer.status) : 'default';
  const key = `${method} ${path} ${status}`;
  const content = operation!.responses[status]!.content as Record<string, { schema: object }>;
  if (!content['application/json']) {
    // A file (a zip): answered with the documented type; its contents are its own test's.
    expect(Object.keys(content), key).toContain(answer.headers.get('Content-Type'));
    matched.add(key);
    return;
  }
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile(content['application/json'].schema);
    validators.set(key, validate);
  }
  const valid = validate(answer.body);
  if (valid) matched.add(key);
  expect(valid, `${key}: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(answer.body)}`).toBe(
    true,
  );
}

async function api(
  method: 'GET' | 'POST',
  path: string,
  options: {
    token?: string;
    cookie?: string;
    body?: Record<string, unknown>;
    /** A body sent exactly as given (a signed webhook). */
    raw?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<Answer> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.cookie) headers.Cookie = options.cookie;
  if (options.body || options.raw) headers['Content-Type'] = 'application/json';
  const response = await fetch(`${app.baseURL}${path}`, {
    method,
    headers,
    body: options.raw ?? (options.body ? JSON.stringify(options.body) : undefined),
  });
  const text = await response.text();
  const json = response.headers.get('Content-Type')?.startsWith('application/json');
  const answer = {
    status: response.status,
    headers: response.headers,
    body: json ? (JSON.parse(text) as unknown) : text,
  };
  const route = path.split('?')[0]!;
  driven.push(`${method} ${route}`);
  expectDocumented(method, route, answer);
  return answer;
}

/** A spec row: answered 2xx (or the status the row gives) and documented. */
async function row(
  method: 'GET' | 'POST',
  path: string,
  options: Parameters<typeof api>[2] = {},
  status = 200,
) {
  const answer = await api(method, path, options);
  expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(status);
  return answer;
}

const sessionOf = (response: Answer) =>
  response.headers
    .getSetCookie()
    .find((cookie) => cookie.startsWith('__session='))!
    .split(';')[0]!;

/** A personal API token, made on the profile page as a member makes one. */
async function makeToken(cookie: string, name = 'contract test'): Promise<string> {
  const response = await fetch(`${app.baseURL}/profile`, {
    method: 'POST',
    headers: { Cookie: cookie, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ intent: 'create-token', tokenName: name }),
  });
  expect(response.status).toBe(200);
  const token = /(cgk_[A-Za-z0-9_-]{40,})/.exec(await response.text())?.[1];
  expect(token, 'the profile page shows the new token once').toBeDefined();
  return token!;
}

async function signUpMember(label: string) {
  const email = `${label}-${Date.now()}@example.com`;
  const password = 'correct-horse-battery';
  const signedUp = await api('POST', '/api/signup', {
    body: { email, mName: `${label} Member`, password, type: 'free' },
  });
  expect(signedUp.status).toBe(200);
  const cookie = sessionOf(signedUp);
  return {
    id: signedUp.body.userId as string,
    email,
    password,
    cookie,
    token: await makeToken(cookie),
  };
}

/** PayPal's approval page (simulated in demo mode): Approve, back to the return URL. */
async function approveAtPayPal(links: { rel: string; href: string }[]) {
  const approve = links.find((link) => link.rel === 'approve')!.href;
  const response = await fetch(approve, { method: 'POST', redirect: 'manual' });
  expect(response.status).toBe(302);
  return new URL(response.headers.get('Location')!).searchParams.get('subscription_id')!;
}

const payPalCheckout = (email: string) => ({
  planId: 'P-DEMO-MONTHLY',
  email,
  name: 'Ada',
  lastName: 'Lovelace',
  post: '10115',
  address: '1 Analytical Street',
  country: 'DE',
  brand: 'ignored',
  admin: 'ignored',
});

/** The spec's PayPal-style subscription, field by field, as the success and subscription pages read it. */
function expectPayPalSubscription(session: Record<string, unknown>, email: string) {
  expect(session).toMatchObject({
    id: expect.stringMatching(/^I-/),
    start_time: expect.any(String),
    subscriber: {
      name: { given_name: 'Ada', surname: 'Lovelace' },
      shipping_address: {
        address: {
          address_line_1: '1 Analytical Street',
          postal_code: '10115',
          country_code: 'DE',
        },
      },
      email_address: email,
    },
    billing_info: {
      next_billing_time: expect.any(String),
      last_payment: { amount: { value: expect.any(String), currency_code: 'USD' } },
    },
  });
  expect(JSON.stringify(session)).not.toMatch(/startTime|billingInfo|givenName|emailAddress/);
}

/** The spec's Razorpay-style subscription. */
function expectRazorpaySubscription(session: Record<string, unknown>) {
  expect(session).toMatchObject({
    id: expect.stringMatching(/^sub_/),
    current_start: expect.any(Number),
    charge_at: expect.any(Number),
    customer_id: expect.any(String),
    notes: { notes_key_1: expect.stringContaining('Grace') },
    status: 'active',
  });
}

/** The token of the newest reset link emailed to `email` (the outbox of demo mode). */
async function resetTokenFor(email: string): Promise<string> {
  for (let tries = 0; tries < 100; tries += 1) {
    // The running app's own database (tests/support/members.ts), queried through `tables`.
    const { outboxEmails } = tables;
    const mails = await appDatabase(app)
      .select()
      .from(outboxEmails)
      .where(eq(outboxEmails.to, email.toLowerCase()));
    const token = mails
      .map((mail) => /\/reset-password\/([A-Za-z0-9_-]+)/.exec(mail.html ?? '')?.[1])
      .filter(Boolean)
      .pop();
    if (token) return token;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`no reset email to ${email}`);
}

beforeAll(async () => {
  app = await startApp({
    API_ALLOWED_ORIGINS: CLIENT_ORIGIN,
    AI_REQUESTS_PER_HOUR: String(AI_PER_HOUR),
  });
  document = (await (await fetch(`${app.baseURL}/api/openapi.json`)).json()) as Doc;
}, 180_000);

afterAll(async () => {
  await closeAppDatabases();
  await app?.stop();
});

describe("the spec's /api table, in order, with API tokens", () => {
  it('answers every row in the spec’s shapes', async () => {
    // POST /api/signin: the seeded admin (free), whose token then drives the admin rows.
    const signedIn = await row('POST', '/api/signin', {
      body: { email: app.adminEmail, password: app.adminPassword },
    });
    expect(signedIn.body).toEqual({
      success: true,
      message: expect.any(String),
      userData: {
        email: app.adminEmail,
        mName: expect.any(String),
        _id: expect.any(String),
        type: 'free',
      },
    });
    const adminToken = await makeToken(sessionOf(signedIn), 'admin script');

    // POST /api/signup: every account starts free, whatever `type` says.
    const member = await signUpMember('contract');
    expect(member.id).toMatch(/\S/);

    // POST /api/data: the open mail relay is gone for good (the spec ignores its result).
    const data = await row(
      'POST',
      '/api/data',
      { token: member.token, body: { subject: 'x', to: member.email, html: '<p>x</p>' } },
      410,
    );
    expect(data.body).toMatchObject({ success: false });

    // POST /api/forgot, then POST /api/reset-password with the emailed token.
    const forgot = await row('POST', '/api/forgot', {
      body: { email: member.email, name: 'x', company: 'x', logo: 'x' },
    });
    expect(forgot.body).toEqual({ success: true, message: expect.any(String) });
    const resetToken = await resetTokenFor(member.email);
    const newPassword = 'another-horse-battery';
    const reset = await row('POST', '/api/reset-password', {
      body: { password: newPassword, token: resetToken },
    });
    expect(reset.body).toEqual({ success: true, message: expect.any(String), email: member.email });
    // A new password revokes every token, like every session.
    const revoked = await api('GET', '/api/courses', { token: member.token });
    expect(revoked.status).toBe(401);
    const again = await api('POST', '/api/signin', {
      body: { email: member.email, password: newPassword },
    });
    const token = await makeToken(sessionOf(again));

    // GET /api/courses?userId=: course records with their content (JSON text), enough per page.
    const made = await insertCourse(app, member.id, {
      mainTopic: 'Made On Create',
      lessons: 3,
      allDone: false,
    });
    const listed = await row('GET', `/api/courses?userId=${member.id}`, { token });
    expect(listed.body).toHaveLength(1);
    expect(listed.body[0]).toMatchObject({
      _id: made,
      user: member.id,
      mainTopic: 'Made On Create',
      type: 'text',
      photo: expect.any(String),
      date: expect.any(String),
      completed: false,
      end: null,
    });
    const listedContent = JSON.parse(listed.body[0].content as string);
    expect(listedContent['made on create'][0].subtopics[0]).toEqual({
      title: 'Lesson 1',
      theory: '<p>Lesson 1</p>',
      youtube: '',
      image: '',
      done: true,
    });
    expect((await api('GET', '/api/courses?userId=someone-else', { token })).status).toBe(403);

    // POST /api/prompt: the outline as JSON text of course content.
    const prompt = await row('POST', '/api/prompt', {
      token,
      body: { prompt: 'Generate a list of topics about Astronomy in JSON' },
    });
    const outline = JSON.parse(prompt.body.generatedText as string) as Record<
      string,
      { title: string; subtopics: Record<string, unknown>[] }[]
    >;
    const [outlineKey, allTopics] = Object.entries(outline)[0]!;
    // A free member's course: at most five topics.
    const outlineTopics = allTopics.slice(0, 3);
    expect(outlineTopics[0]!.subtopics[0]).toEqual({
      title: expect.any(String),
      theory: '',
      youtube: '',
      image: '',
      done: false,
    });

    // POST /api/generate: `text` is HTML (sanitized), not Markdown.
    const generated = await row('POST', '/api/generate', {
      token,
      body: { prompt: 'Explain stars' },
    });
    expect(generated.body.text).toMatch(/^<(p|h\d|ul|ol)>/);
    expect(generated.body.text).not.toMatch(/<script|^#/);

    // POST /api/image, POST /api/yt: a url, and a video id as `url`.
    const image = await row('POST', '/api/image', { token, body: { prompt: 'Astronomy' } });
    // Absolute, so that a client on another origin can load it (the demo's own photos too).
    expect(image.body.url).toMatch(/^https?:\/\/\S+$/);
    const video = await row('POST', '/api/yt', { token, body: { prompt: 'Astronomy' } });
    expect(video.body.url).toMatch(/^[\w-]{6,20}$/);

    // POST /api/transcript: `url` is the list of items, each with its text.
    const transcript = await row('POST', '/api/transcript', {
      token,
      body: { prompt: video.body.url },
    });
    expect(Array.isArray(transcript.body.url)).toBe(true);
    expect(transcript.body.url[0]).toMatchObject({ text: expect.any(String) });

    // GET and POST /api/outline/{outlineId} (ADR 0032; not rows of the spec's table, so driven
    // here, between the outline and the course): another member's outline, made on /create,
    // read until written, edited within the free plan and made into a course.
    const author = await signUpMember('author');
    const outlineMade = await fetch(`${app.baseURL}/create`, {
      method: 'POST',
      headers: { Cookie: author.cookie, Origin: app.baseURL },
      body: new URLSearchParams({
        topic: 'Photosynthesis',
        subtopic: 'Light Reactions',
        topicCount: '5',
        type: 'text',
      }),
      redirect: 'manual',
    });
    expect(outlineMade.status).toBe(302);
    const outlineId = outlineMade.headers.get('Location')!.split('/topics/')[1]!;
    let outlineRead = await row('GET', `/api/outline/${outlineId}`, { token: author.token });
    for (let tries = 0; outlineRead.body.outline.state !== 'done' && tries < 300; tries += 1) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      outlineRead = await row('GET', `/api/outline/${outlineId}`, { token: author.token });
    }
    expect(outlineRead.body).toEqual({
      success: true,
      outline: expect.objectContaining({
        id: outlineId,
        state: 'done',
        mainTopic: 'Photosynthesis',
        courseType: 'text',
        topics: expect.arrayContaining([
          { title: expect.any(String), subtopics: expect.any(Array) },
        ]),
        courseId: null,
        revision: 0,
        rewriting: null,
        material: null,
      }),
    });
    expect((await api('GET', `/api/outline/${outlineId}`, { token })).status).toBe(404);
    const shaped = [{ title: 'Light', subtopics: [{ title: 'Chlorophyll' }, { title: 'Water' }] }];
    const edited = await row('POST', `/api/outline/${outlineId}`, {
      token: author.token,
      body: { topics: shaped },
    });
    expect(edited.body).toEqual({
      success: true,
      outline: expect.objectContaining({ topics: shaped, revision: 1, courseId: null }),
    });
    const generatedCourse = await row('POST', `/api/outline/${outlineId}`, {
      token: author.token,
      body: { generate: true },
    });
    expect(generatedCourse.body).toEqual({
      success: true,
      outline: expect.objectContaining({ courseId: generatedCourse.body.courseId }),
      courseId: expect.any(String),
    });
    const late = await api('POST', `/api/outline/${outlineId}`, {
      token: author.token,
      body: { topics: shaped },
    });
    expect(late).toMatchObject({
      status: 409,
      body: { success: false, message: expect.any(String) },
    });

    // POST /api/course: the client's content (JSON text), every lesson written.
    for (const topic of outlineTopics)
      for (const subtopic of topic.subtopics) subtopic.theory = `<p>${String(subtopic.title)}</p>`;
    outlineTopics[0]!.subtopics[0]!.image = image.body.url;
    const created = await row('POST', '/api/course', {
      token,
      body: {
        user: member.id,
        content: JSON.stringify({ [outlineKey]: outlineTopics }),
        type: 'theory & image course',
        mainTopic: 'Astronomy',
      },
    });
    expect(created.body).toEqual({
      success: true,
      message: expect.any(String),
      courseId: expect.any(String),
      completed: false,
    });
    const courseId = created.body.courseId as string;
    const [saved] = (await api('GET', '/api/courses', { token })).body as Record<string, unknown>[];
    expect(saved).toMatchObject({ _id: courseId, type: 'text', photo: image.body.url });

    // POST /api/update: every lesson done.
    for (const topic of outlineTopics) for (const subtopic of topic.subtopics) subtopic.done = true;
    const updated = await row('POST', '/api/update', {
      token,
      body: { content: JSON.stringify({ [outlineKey]: outlineTopics }), courseId },
    });
    expect(updated.body.success).toBe(true);

    // POST /api/finish, POST /api/sendcertificate (the spec sends html and email only).
    const finished = await row('POST', '/api/finish', { token, body: { courseId } });
    expect(finished.body.success).toBe(true);
    const certificate = await row('POST', '/api/sendcertificate', {
      token,
      body: { html: '<p>ignored</p>', email: 'ignored@example.com' },
    });
    expect(certificate.body.success).toBe(true);
    const [finishedRecord] = (await api('GET', '/api/courses', { token })).body as Record<
      string,
      unknown
    >[];
    expect(finishedRecord).toMatchObject({ completed: true, end: expect.any(String) });

    // POST /api/profile: the caller's own profile (uid must be theirs).
    const profile = await row('POST', '/api/profile', {
      token,
      body: { email: member.email, mName: 'Renamed Member', password: '', uid: member.id },
    });
    expect(profile.body).toEqual({ success: true, message: expect.any(String) });

    // POST /api/paypal: links; the buyer approves at rel=approve.
    const paypal = await row('POST', '/api/paypal', { token, body: payPalCheckout(member.email) });
    expect(paypal.body.links).toContainEqual(expect.objectContaining({ rel: 'approve' }));
    const subscriptionId = await approveAtPayPal(paypal.body.links);

    // POST /api/razorpaycreate: another member starts a Razorpay subscription and pays its link.
    const razor = await signUpMember('razor');
    const razorCreated = await row('POST', '/api/razorpaycreate', {
      token: razor.token,
      body: {
        plan: 'Monthly Plan',
        email: razor.email,
        fullAddress: 'Grace Hopper, 1 Harbour Road, 560001 IN',
      },
    });
    expect(razorCreated.body).toMatchObject({
      id: expect.stringMatching(/^sub_/),
      short_url: expect.stringMatching(/^http/),
    });
    expect((await fetch(razorCreated.body.short_url, { method: 'POST' })).status).toBe(200);

    // POST /api/paypaldetails: PayPal's own subscription object; the member becomes the plan.
    const paypalDetails = await row('POST', '/api/paypaldetails', {
      token,
      body: { subscriberId: subscriptionId, uid: member.id, plan: 'Monthly Plan' },
    });
    expectPayPalSubscription(paypalDetails.body, member.email);
    expect(paypalDetails.body.status).toBe('ACTIVE');

    // POST /api/razorapydetails: Razorpay's own subscription entity.
    const razorDetails = await row('POST', '/api/razorapydetails', {
      token: razor.token,
      body: { subscriberId: razorCreated.body.id, uid: razor.id, plan: 'Monthly Plan' },
    });
    expectRazorpaySubscription(razorDetails.body);

    // POST /api/sendreceipt, POST /api/downloadreceipt.
    const sendReceipt = await row('POST', '/api/sendreceipt', {
      token,
      body: {
        html: 'x',
        email: 'x',
        plan: 'x',
        subscriberId: 'x',
        user: 'x',
        method: 'x',
        subscription: 'x',
      },
    });
    expect(sendReceipt.body.success).toBe(true);
    const downloadReceipt = await row('POST', '/api/downloadreceipt', {
      token,
      body: { html: 'x', email: member.email },
    });
    expect(downloadReceipt.body).toEqual({ success: true, message: expect.any(String) });

    // POST /api/subscriptiondetail: session (the provider object) and method.
    const detail = await row('POST', '/api/subscriptiondetail', {
      token,
      body: { uid: member.id },
    });
    expect(detail.body.method).toBe('paypal');
    expectPayPalSubscription(detail.body.session, member.email);
    const razorDetail = await row('POST', '/api/subscriptiondetail', {
      token: razor.token,
      body: {},
    });
    expect(razorDetail.body.method).toBe('razorpay');
    expectRazorpaySubscription(razorDetail.body.session);

    // POST /api/paypalcancel (a third member), POST /api/razorpaycancel: 'Subscription Cancelled'.
    const leaver = await signUpMember('leaver');
    const leaverPayPal = await api('POST', '/api/paypal', {
      token: leaver.token,
      body: payPalCheckout(leaver.email),
    });
    const leaverSubscription = await approveAtPayPal(leaverPayPal.body.links);
    await row('POST', '/api/paypaldetails', {
      token: leaver.token,
      body: { subscriberId: leaverSubscription },
    });
    const cancelled = await row('POST', '/api/paypalcancel', {
      token: leaver.token,
      body: { id: leaverSubscription },
    });
    expect(cancelled.body).toMatchObject({ success: true, message: 'Subscription Cancelled' });
    const razorCancelled = await row('POST', '/api/razorpaycancel', {
      token: razor.token,
      body: { id: razorCreated.body.id },
    });
    expect(razorCancelled.body).toMatchObject({ success: true, message: 'Subscription Cancelled' });

    // POST /api/paypalupdate: links to approve the other plan; POST /api/paypalupdateuser.
    const revise = await row('POST', '/api/paypalupdate', {
      token,
      body: { id: subscriptionId, idPlan: 'P-DEMO-YEARLY' },
    });
    const revised = await approveAtPayPal(revise.body.links);
    const updatedUser = await row('POST', '/api/paypalupdateuser', {
      token,
      body: { id: revised, mName: 'x', email: 'x', user: 'x', plan: 'Yearly Plan' },
    });
    expect(updatedUser.body).toEqual({ success: true, plan: 'Yearly Plan' });

    // POST /api/razorapypending: a new, unpaid subscription is pending; paid, it is active.
    const second = await api('POST', '/api/razorpaycreate', {
      token: razor.token,
      body: { plan: 'Monthly Plan', email: razor.email, fullAddress: 'Grace Hopper' },
    });
    const pending = await row('POST', '/api/razorapypending', {
      token: razor.token,
      body: { sub: second.body.id },
    });
    expect(pending.body.status).toBe('pending');
    await fetch(second.body.short_url, { method: 'POST' });
    const active = await row('POST', '/api/razorapypending', {
      token: razor.token,
      body: { sub: second.body.id },
    });
    expect(active.body.status).toBe('active');

    // POST /api/contact.
    const contact = await row('POST', '/api/contact', {
      body: {
        fname: 'Ada',
        lname: 'Lovelace',
        email: 'ada@example.com',
        phone: '5551234567',
        msg: 'Hello',
      },
    });
    expect(contact.body).toEqual({ success: true, message: expect.any(String) });

    // The admin rows, with the admin's token.
    const dashboard = await row('POST', '/api/dashboard', { token: adminToken });
    expect(dashboard.body).toMatchObject({
      users: expect.any(Number),
      courses: expect.any(Number),
      sum: expect.any(Number),
      total: expect.any(Number),
      paid: expect.any(Number),
      free: expect.any(Number),
      textType: expect.any(Number),
      videoType: expect.any(Number),
      admin: {
        email: app.adminEmail,
        terms: expect.any(String),
        privacy: expect.any(String),
        cancel: expect.any(String),
        refund: expect.any(String),
        billing: expect.any(String),
      },
    });
    const usersList = await row('GET', '/api/getusers', { token: adminToken });
    for (const user of usersList.body) expect(MEMBER_TYPES).toContain(user.type);
    expect(usersList.body).toContainEqual({
      _id: member.id,
      email: member.email,
      mName: 'Renamed Member',
      type: 'Yearly Plan',
    });
    const coursesList = await row('GET', '/api/getcourses', { token: adminToken });
    expect(coursesList.body).toContainEqual(
      expect.objectContaining({
        _id: courseId,
        mainTopic: 'Astronomy',
        type: 'text',
        user: member.id,
      }),
    );
    const paidList = await row('GET', '/api/getpaid', { token: adminToken });
    expect(paidList.body.map((user: { _id: string }) => user._id)).toContain(member.id);
    const contacts = await row('GET', '/api/getcontact', { token: adminToken });
    expect(contacts.body[0]).toMatchObject({
      fname: 'Ada',
      lname: 'Lovelace',
      phone: '5551234567',
      msg: 'Hello',
    });
    const admins = await row('GET', '/api/getadmins', { token: adminToken });
    expect(admins.body.admins).toContainEqual(
      expect.objectContaining({ email: app.adminEmail, type: 'main' }),
    );
    expect(Array.isArray(admins.body.users)).toBe(true);
    const added = await row('POST', '/api/addadmin', {
      token: adminToken,
      body: { email: leaver.email },
    });
    expect(added.body).toEqual({ success: true, message: expect.any(String) });
    const removed = await row('POST', '/api/removeadmin', {
      token: adminToken,
      body: { email: leaver.email },
    });
    expect(removed.body).toEqual({ success: true, message: expect.any(String) });
    const savedPolicy = await row('POST', '/api/saveadmin', {
      token: adminToken,
      body: { data: '<p>Our terms</p>', type: 'terms' },
    });
    expect(savedPolicy.body).toEqual({ success: true, message: expect.any(String) });

    // GET /api/policies: an array whose first item holds the five texts.
    const policies = await row('GET', '/api/policies');
    expect(policies.body[0]).toMatchObject({ terms: '<p>Our terms</p>' });
    expect(Object.keys(policies.body[0]).sort()).toEqual([
      'billing',
      'cancel',
      'privacy',
      'refund',
      'terms',
    ]);

    // Every row of the table was driven, in the spec's order.
    const firstCalls = [...new Set(driven)].filter((call) => SPEC_ROWS.includes(call));
    expect(firstCalls).toEqual(SPEC_ROWS);
  });
});

describe('API tokens', () => {
  it('act for their member only: admin routes refuse a member’s token, the AI allowance counts', async () => {
    const member = await signUpMember('allowance');
    for (const path of [
      '/api/getusers',
      '/api/getcourses',
      '/api/getpaid',
      '/api/getcontact',
      '/api/getadmins',
    ])
      expect((await api('GET', path, { token: member.token })).status).toBe(403);
    expect((await api('POST', '/api/dashboard', { token: member.token })).status).toBe(403);
    for (let call = 1; call <= AI_PER_HOUR; call += 1)
      expect(
        (await api('POST', '/api/generate', { token: member.token, body: { prompt: 'Hi' } }))
          .status,
      ).toBe(200);
    const refused = await api('POST', '/api/generate', {
      token: member.token,
      body: { prompt: 'Hi' },
    });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('Retry-After')).toMatch(/^\d+$/);
  });

  it('are refused when made up, malformed or of another member’s course', async () => {
    const member = await signUpMember('stranger');
    for (const authorization of ['Bearer cgk_madeup', 'Bearer', 'Basic abc'])
      expect(
        (await api('GET', '/api/courses', { headers: { Authorization: authorization } })).status,
      ).toBe(401);
    const other = await signUpMember('owner');
    const theirs = await insertCourse(app, other.id, {
      mainTopic: 'Theirs',
      lessons: 1,
      allDone: false,
    });
    expect(
      (await api('GET', `/api/course?courseId=${theirs}`, { token: member.token })).status,
    ).toBe(404);
    expect(
      (await api('GET', `/api/course?courseId=${theirs}`, { token: other.token })).status,
    ).toBe(200);
  });

  it('record when they were last used', async () => {
    const member = await signUpMember('lastused');
    const profile = () =>
      fetch(`${app.baseURL}/profile`, { headers: { Cookie: member.cookie } }).then((r) => r.text());
    expect(await profile()).toContain('never used');
    await api('GET', '/api/courses', { token: member.token });
    const page = await profile();
    expect(page).toContain('contract test');
    expect(page).toMatch(/last used \d/);
  });
});

describe('every /api failure', () => {
  it('is a 4xx { success: false, message, code } as documented, with the spec’s messages', async () => {
    const member = await signUpMember('failures');
    for (const [path, methods] of Object.entries(document.paths)) {
      if (!path.startsWith('/api/') || path === '/api/docs') continue;
      for (const method of Object.keys(methods)) {
        const upper = method.toUpperCase() as 'GET' | 'POST';
        const anonymous = await api(upper, path, upper === 'POST' ? { body: {} } : {});
        if (anonymous.status < 400) continue;
        expect(anonymous.status, `${upper} ${path}`).toBeLessThan(500);
        expect(anonymous.body).toEqual({
          success: false,
          message: expect.any(String),
          code: expect.any(String),
          ...(anonymous.body.param ? { param: expect.any(String) } : {}),
        });
      }
    }
    const signInBlank = await api('POST', '/api/signin', { body: { email: '' } });
    expect(signInBlank).toMatchObject({
      status: 400,
      body: { success: false, message: 'Please fill in all required fields' },
    });
    const shortPassword = await api('POST', '/api/signup', {
      body: { email: 'short@example.com', mName: 'Short', password: 'abc' },
    });
    expect(shortPassword.body).toEqual({
      success: false,
      message: 'Password should be at least 9 characters',
      code: 'invalid_request',
      param: 'password',
    });
    const noTopic = await api('POST', '/api/course', {
      token: member.token,
      body: { type: 'text', content: {} },
    });
    expect(noTopic.body).toEqual({
      success: false,
      message: 'Please fill in all required fields',
      code: 'invalid_request',
      param: 'mainTopic',
    });
    const wrongMethod = await fetch(`${app.baseURL}/api/prompt`, {
      method: 'PUT',
      headers: { Authorization: `Bearer ${member.token}` },
    });
    expect(wrongMethod.status).toBe(405);
    expect(await wrongMethod.json()).toEqual({
      success: false,
      message: 'Method Not Allowed',
      code: 'method_not_allowed',
    });
  });
});

describe('CORS (API_ALLOWED_ORIGINS)', () => {
  it('answers an allowed origin’s preflight, and its token-authenticated calls, without cookies', async () => {
    const member = await signUpMember('cors');
    const preflight = await fetch(`${app.baseURL}/api/course`, {
      method: 'OPTIONS',
      headers: {
        Origin: CLIENT_ORIGIN,
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('Access-Control-Allow-Origin')).toBe(CLIENT_ORIGIN);
    expect(preflight.headers.get('Access-Control-Allow-Headers')).toMatch(/Authorization/);
    expect(preflight.headers.get('Access-Control-Allow-Credentials')).toBeNull();

    const listed = await api('GET', '/api/courses', {
      token: member.token,
      headers: { Origin: CLIENT_ORIGIN },
    });
    expect(listed.status).toBe(200);
    expect(listed.headers.get('Access-Control-Allow-Origin')).toBe(CLIENT_ORIGIN);
    expect(listed.headers.get('Vary')).toMatch(/Origin/);
    expect(listed.headers.get('Cache-Control')).toBe('private, no-store');

    // The session cookie counts for nothing across origins; a sign-in there sets none.
    const byCookie = await api('GET', '/api/courses', {
      cookie: member.cookie,
      headers: { Origin: CLIENT_ORIGIN },
    });
    expect(byCookie.status).toBe(401);
    const crossSignIn = await api('POST', '/api/signin', {
      body: { email: member.email, password: member.password },
      headers: { Origin: CLIENT_ORIGIN },
    });
    expect(crossSignIn.status).toBe(200);
    expect(crossSignIn.headers.getSetCookie()).toEqual([]);
  });

  it('refuses every other origin as before', async () => {
    const member = await signUpMember('evil');
    const preflight = await fetch(`${app.baseURL}/api/course`, {
      method: 'OPTIONS',
      headers: { Origin: 'http://evil.example', 'Access-Control-Request-Method': 'POST' },
    });
    expect(preflight.status).toBe(403);
    expect(preflight.headers.get('Access-Control-Allow-Origin')).toBeNull();
    const write = await api('POST', '/api/course', {
      token: member.token,
      body: { mainTopic: 'X', type: 'text', content: {} },
      headers: { Origin: 'http://evil.example' },
    });
    expect(write).toMatchObject({
      status: 403,
      body: { success: false, message: 'Cross-site requests are not allowed' },
    });
    // An allowed origin may call the API, never post the site's own forms.
    const form = await fetch(`${app.baseURL}/profile`, {
      method: 'POST',
      headers: { Origin: CLIENT_ORIGIN, Cookie: member.cookie },
      body: new URLSearchParams({ intent: 'create-token', tokenName: 'x' }),
    });
    expect(form.status).toBe(403);
    const read = await api('GET', '/api/courses', {
      token: member.token,
      headers: { Origin: 'http://evil.example' },
    });
    expect(read.headers.get('Access-Control-Allow-Origin')).toBeNull();
  });
});

describe("a member's own lessons and courses through the API", () => {
  it('reads and edits a lesson, lists and restores its versions, then deletes the course', async () => {
    const member = await signUpMember('editor');
    const courseId = await insertCourse(app, member.id, {
      mainTopic: 'Editing',
      lessons: 2,
      allDone: true,
    });
    const [lesson] = await appDatabase(app)
      .select({ id: tables.lessons.id })
      .from(tables.lessons)
      .where(eq(tables.lessons.courseId, courseId))
      .orderBy(tables.lessons.ordinal);
    const path = `/api/lesson/${lesson!.id}`;
    const { token } = member;

    const read = await row('GET', path, { token });
    const written = read.body.lesson as { title: string };
    const edited = await row('POST', path, {
      token,
      body: { title: 'Edited by its author', markdown: 'One sentence of the **author**.' },
    });
    expect(edited.body.lesson).toMatchObject({ title: 'Edited by its author' });
    const versions = (await row('GET', `${path}/versions`, { token })).body.versions as {
      id: number;
      kind: string;
    }[];
    expect(versions.map((version) => version.kind)).toEqual(['edited', 'generated']);
    const restored = await row('POST', `${path}/versions`, {
      token,
      body: { versionId: versions[1]!.id },
    });
    expect(restored.body.lesson).toMatchObject({ title: written.title });

    // Everything of the member's, as a zip (its contents: tests/integration/data-export).
    const exported = await row('GET', '/api/export', { token });
    expect(exported.headers.get('Content-Disposition')).toMatch(/^attachment; filename=".+\.zip"$/);

    await row('POST', '/api/deletecourse', { token, body: { courseId } });
    expect((await api('GET', path, { token })).status).toBe(404);
    expect((await api('POST', '/api/deletecourse', { token, body: { courseId } })).status).toBe(
      404,
    );
  });
});

describe("a member's own quizzes through the API", () => {
  it('reads a quiz with its answer key and edits it by the rules the AI keeps to', async () => {
    const member = await signUpMember('quiz-author');
    const courseId = await insertCourse(app, member.id, {
      mainTopic: 'Quizzing',
      lessons: 1,
      allDone: true,
    });
    const questions = [
      {
        question: 'What are two and two?',
        options: ['Four', 'Five'],
        answer: 0,
        explanation: 'Two and two make four.',
      },
    ];
    const [quiz] = await appDatabase(app)
      .insert(tables.quizzes)
      .values({
        courseId,
        kind: 'exam',
        title: 'Final exam',
        questionCount: 1,
        questions,
        state: 'done',
      })
      .returning();
    const path = `/api/quiz/${courseId}/${quiz!.id}`;
    const { token } = member;

    const read = await row('GET', path, { token });
    expect(read.body.quiz).toMatchObject({ busy: false, questions });
    const changed = { ...questions[0]!, options: ['Four', 'Five', 'Six'], answer: 2 };
    const edited = await row('POST', path, { token, body: { questions: [changed] } });
    expect(edited.body.quiz).toMatchObject({ questions: [changed] });
    const refused = await api('POST', path, {
      token,
      body: { questions: [{ ...changed, options: ['Four', 'four'], answer: 0 }] },
    });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(`Question 1: ${QUIZ_SAME_OPTIONS_MESSAGE}`);
    const other = await signUpMember('quiz-reader');
    expect((await api('GET', path, { token: other.token })).status).toBe(404);
  });
});

describe('the published OpenAPI document', () => {
  it('matches every answer it documents, each met at least once above or here', async () => {
    await row('GET', '/api/openapi.json');
    // GET /api/plans (not a row of the spec's table): the three plans, with no session.
    const plans = await row('GET', '/api/plans');
    expect(plans.body.map((plan: { name: string }) => plan.name)).toEqual([
      'Free Plan',
      'Monthly Plan',
      'Yearly Plan',
    ]);
    // The providers' webhooks: signed as each provider signs (the demo mocks' keys); forged, refused.
    const razorpayEvent = JSON.stringify({
      event: 'subscription.charged',
      payload: { subscription: { entity: { id: 'sub_unknown' } } },
    });
    await row('POST', '/webhooks/razorpay', {
      raw: razorpayEvent,
      headers: {
        'X-Razorpay-Signature': createHmac('sha256', DEMO_RAZORPAY_WEBHOOK_SECRET)
          .update(razorpayEvent)
          .digest('hex'),
      },
    });
    const paypalEvent = signedPayPalWebhook(
      {
        id: 'WH-CONTRACT',
        event_type: 'BILLING.SUBSCRIPTION.UPDATED',
        resource: { id: 'I-UNKNOWN' },
      },
      DEMO_PAYPAL_WEBHOOK_ID,
    );
    await row('POST', '/webhooks/paypal', { raw: paypalEvent.body, headers: paypalEvent.headers });
    expect((await api('POST', '/webhooks/paypal', { raw: paypalEvent.body })).status).toBe(400);
    expect((await api('POST', '/webhooks/razorpay', { raw: razorpayEvent })).status).toBe(400);

    // Every success answer is met; the failures met are checked above (each documented with its
    // status), but not all can be caused from here (a 500, a busy database, a vendor down).
    const onlyOnServerFaults: string[] = [];
    const unmet: string[] = [];
    for (const [path, methods] of Object.entries(document.paths)) {
      // An HTML page: tests/e2e/api.test.ts renders it in Chromium.
      if (path === '/api/docs') continue;
      for (const [method, operation] of Object.entries(methods))
        for (const status of Object.keys(operation.responses).filter((s) => /^2/.test(s))) {
          const key = `${method.toUpperCase()} ${path} ${status}`;
          if (!matched.has(key) && !onlyOnServerFaults.includes(key)) unmet.push(key);
        }
    }
    expect(unmet).toEqual([]);
  });
});

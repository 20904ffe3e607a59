import type { AppLoadContext } from '@remix-run/node';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/lib/system';
import { decodePngSize, insertCourse, THIS_PROCESS } from '../support/courses';
import { spawnWorker, stopWorker } from '../support/worker-process';
import { certificateEmailQueue } from '~/queues/certificate-email.server';
import {
  courseProgress,
  getCertificateByPublicId,
  getCompletion,
} from '~/models/completions.server';
import { finishCourse } from '~/services/course-completion.server';
import { createUser } from '~/models/users.server';
import * as finishApi from '~/routes/api/api.finish';
import * as sendApi from '~/routes/api/api.sendcertificate';
import * as certificatePage from '~/routes/member/certificate.$courseId';
import * as certificateImage from '~/routes/member/certificate.$courseId_.certificate[.png]';
import * as verifyPage from '~/routes/public/verify.$certificateId';
import { resetEmailTransportForTests } from '~/services/vendors/mailer.server';
import { createSession } from '~/utils/auth.server';
import { database, tables } from '~/utils/database.server';
import { resetEnvForTests } from '~/utils/env.server';
import { waitForRedis } from '~/utils/redis.server';

/** A load context of its own for each request, as the web server makes one (it holds the request's session read). */
const freshContext = () => ({ clientIp: '203.0.113.7' }) as AppLoadContext;

beforeAll(async () => {
  // The request-email rate limit lives in Redis; let the connection come up first.
  await waitForRedis(10_000);
});

afterAll(async () => {
  await certificateEmailQueue.close();
});

afterEach(() => {
  delete process.env.SMTP_URL;
  resetEnvForTests();
  resetEmailTransportForTests();
});

let counter = 0;
async function member(name = 'Ada Lovelace') {
  counter += 1;
  const user = await createUser({
    email: `member${counter}-${Date.now()}@example.com`,
    name,
    password: 'a-long-password',
  });
  const cookie = (await createSession(user.id)).split(';')[0]!;
  return { user, cookie };
}

function outboxFor(to: string) {
  const { outboxEmails } = tables;
  return database().select().from(outboxEmails).where(eq(outboxEmails.to, to));
}

/** Runs a loader or action; a thrown Response (redirect, 404) is returned like any other. */
async function call(run: () => Promise<unknown>): Promise<Response> {
  try {
    const result = await run();
    if (result instanceof Response) return result;
    return Response.json(result);
  } catch (error) {
    if (error instanceof Response) return error;
    throw error;
  }
}

function post(path: string, cookie: string | null, body: unknown) {
  return new Request(`http://localhost${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(cookie ? { Cookie: cookie } : {}) },
    body: JSON.stringify(body),
  });
}

function get(path: string, cookie: string | null) {
  return new Request(`http://localhost${path}`, { headers: cookie ? { Cookie: cookie } : {} });
}

describe('finishing a course', () => {
  it('records the completion once, sends one email and keeps the first end date', async () => {
    const { user, cookie } = await member();
    const courseId = await insertCourse(THIS_PROCESS, user.id, {
      mainTopic: 'Rust for Beginners',
      lessons: 4,
      allDone: true,
    });

    const first = await call(() =>
      finishApi.action({
        request: post('/api/finish', cookie, { courseId }),
        params: {},
        context: freshContext(),
      }),
    );
    expect(first.status).toBe(200);
    const firstBody = (await first.json()) as { success: boolean; completedAt: string };
    expect(firstBody.success).toBe(true);
    const recorded = (await getCompletion(courseId))!;
    expect(recorded).toMatchObject({
      memberName: 'Ada Lovelace',
      courseTitle: 'Rust for Beginners',
    });
    expect(recorded.emailedAt).toBeInstanceOf(Date);

    await new Promise((resolve) => setTimeout(resolve, 20));
    const second = await call(() =>
      finishApi.action({
        request: post('/api/finish', cookie, { courseId }),
        params: {},
        context: freshContext(),
      }),
    );
    expect(second.status).toBe(200);
    const secondBody = (await second.json()) as { success: boolean; completedAt: string };
    expect(secondBody).toMatchObject({ success: true, completedAt: firstBody.completedAt });
    expect((await getCompletion(courseId))!.completedAt.getTime()).toBe(
      recorded.completedAt.getTime(),
    );
    expect((await getCompletion(courseId))!.certificateId).toBe(recorded.certificateId);

    const emails = await outboxFor(user.email);
    expect(emails).toHaveLength(1);
    expect(emails[0]!.subject).toBe('Your certificate for Rust for Beginners');
    expect(emails[0]!.html).toContain(recorded.certificateId);
    expect(emails[0]!.attachments).toHaveLength(1);
    const attachment = emails[0]!.attachments[0]!;
    expect(attachment).toMatchObject({ filename: 'certificate.png', contentType: 'image/png' });
    expect(decodePngSize(Buffer.from(attachment.base64, 'base64'))).toEqual({
      width: 2000,
      height: 1414,
    });
  });

  it('sends one email when two finishes arrive at once', async () => {
    const { user } = await member('Grace Hopper');
    const courseId = await insertCourse(THIS_PROCESS, user.id, {
      mainTopic: 'Compilers',
      lessons: 2,
      allDone: true,
    });
    const results = await Promise.all([
      finishCourse(user.id, courseId),
      finishCourse(user.id, courseId),
      finishCourse(user.id, courseId),
    ]);
    expect(results.every((r) => r.ok)).toBe(true);
    expect(results.filter((r) => r.ok && r.value.created)).toHaveLength(1);
    expect(await outboxFor(user.email)).toHaveLength(1);
  });

  it('refuses a course that is not at 100% and records nothing', async () => {
    const { user, cookie } = await member();
    const courseId = await insertCourse(THIS_PROCESS, user.id, {
      mainTopic: 'Half Done',
      lessons: 3,
      allDone: false,
    });
    expect(await courseProgress(courseId)).toEqual({ done: 1, total: 3, percent: 33 });

    const response = await call(() =>
      finishApi.action({
        request: post('/api/finish', cookie, { courseId }),
        params: {},
        context: freshContext(),
      }),
    );
    expect(response.status).toBe(409);
    await expect(response.json()).resolves.toMatchObject({
      success: false,
      message: 'Finish every lesson of this course to get its certificate',
    });
    expect(await getCompletion(courseId)).toBeUndefined();
    expect(await outboxFor(user.email)).toHaveLength(0);

    // The page sends the member back to the course instead.
    const page = await call(() =>
      certificatePage.loader({
        request: get(`/certificate/${courseId}`, cookie),
        params: { courseId },
        context: freshContext(),
      }),
    );
    expect(page.status).toBe(302);
    expect(page.headers.get('Location')).toBe(`/course/${courseId}`);
  });

  it("refuses someone else's course as if it did not exist", async () => {
    const owner = await member('Owner');
    const other = await member('Intruder');
    const courseId = await insertCourse(THIS_PROCESS, owner.user.id, {
      mainTopic: 'Private Course',
      lessons: 2,
      allDone: true,
    });

    const response = await call(() =>
      finishApi.action({
        request: post('/api/finish', other.cookie, { courseId, uid: owner.user.id }),
        params: {},
        context: freshContext(),
      }),
    );
    expect(response.status).toBe(404);
    await expect(response.json()).resolves.toMatchObject({
      success: false,
      message: 'Course not found',
    });
    expect(await getCompletion(courseId)).toBeUndefined();

    for (const run of [
      () =>
        certificatePage.loader({
          request: get(`/certificate/${courseId}`, other.cookie),
          params: { courseId },
          context: freshContext(),
        }),
      () =>
        certificatePage.action({
          request: post(`/certificate/${courseId}`, other.cookie, { intent: 'finish' }),
          params: { courseId },
          context: freshContext(),
        }),
    ]) {
      expect((await call(run)).status).toBe(404);
    }
    expect(await getCompletion(courseId)).toBeUndefined();

    // Once the owner finishes, the other member still cannot see or download it.
    expect((await finishCourse(owner.user.id, courseId)).ok).toBe(true);
    const image = await call(() =>
      certificateImage.loader({
        request: get(`/certificate/${courseId}/certificate.png`, other.cookie),
        params: { courseId },
        context: freshContext(),
      }),
    );
    expect(image.status).toBe(404);
  });

  it('needs a signed-in member and a course id', async () => {
    const anonymous = await call(() =>
      finishApi.action({
        request: post('/api/finish', null, { courseId: 'x' }),
        params: {},
        context: freshContext(),
      }),
    );
    expect(anonymous.status).toBe(401);
    const { cookie } = await member();
    const missing = await call(() =>
      finishApi.action({
        request: post('/api/finish', cookie, {}),
        params: {},
        context: freshContext(),
      }),
    );
    expect(missing.status).toBe(400);
    await expect(missing.json()).resolves.toMatchObject({
      success: false,
      message: 'Please fill in all required fields',
    });
  });

  it('keeps the completion when the email fails and sends it on the next finish', async () => {
    const { user } = await member('Katherine Johnson');
    const courseId = await insertCourse(THIS_PROCESS, user.id, {
      mainTopic: 'Orbital Mechanics',
      lessons: 2,
      allDone: true,
    });
    process.env.SMTP_URL = `smtp://127.0.0.1:${await freePort()}`;
    resetEnvForTests();
    resetEmailTransportForTests();

    const failed = await finishCourse(user.id, courseId);
    expect(failed).toMatchObject({ ok: true, value: { created: true, emailed: false } });
    const stored = (await getCompletion(courseId))!;
    expect(stored.emailedAt).toBeNull();

    delete process.env.SMTP_URL;
    resetEnvForTests();
    resetEmailTransportForTests();
    const retried = await finishCourse(user.id, courseId);
    expect(retried).toMatchObject({ ok: true, value: { created: false, emailed: true } });
    expect((await getCompletion(courseId))!.completedAt.getTime()).toBe(
      stored.completedAt.getTime(),
    );
    expect((await getCompletion(courseId))!.emailedAt).toBeInstanceOf(Date);
    expect(await outboxFor(user.email)).toHaveLength(1);
  });
});

describe('a certificate email that failed at finish time', () => {
  it('is sent later by the worker, once', async () => {
    const { user } = await member('Dorothy Vaughan');
    const courseId = await insertCourse(THIS_PROCESS, user.id, {
      mainTopic: 'FORTRAN',
      lessons: 2,
      allDone: true,
    });
    process.env.SMTP_URL = `smtp://127.0.0.1:${await freePort()}`;
    resetEnvForTests();
    resetEmailTransportForTests();
    expect(await finishCourse(user.id, courseId)).toMatchObject({
      ok: true,
      value: { emailed: false },
    });
    const job = await certificateEmailQueue.queue().getJob(`certificate-email-${courseId}`);
    expect(job?.data).toEqual({ courseId });
    await expect(job!.isDelayed()).resolves.toBe(true);

    // The mail server is back (the worker runs in demo mode with the outbox); run the retry now.
    delete process.env.SMTP_URL;
    resetEnvForTests();
    resetEmailTransportForTests();
    await job!.promote();
    const worker = spawnWorker();
    try {
      await worker.ready;
      // The worker sends the email, then notes it on the completion: wait for both.
      const deadline = Date.now() + 30_000;
      const sentAndNoted = async () =>
        (await outboxFor(user.email)).length > 0 &&
        Boolean((await getCompletion(courseId))?.emailedAt);
      while (!(await sentAndNoted()) && Date.now() < deadline)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect((await getCompletion(courseId))?.emailedAt).toBeInstanceOf(Date);
      const emails = await outboxFor(user.email);
      expect(emails).toHaveLength(1);
      expect(emails[0]!.attachments[0]!.filename).toBe('certificate.png');
    } finally {
      await stopWorker(worker);
    }
    // A later finish does not send it again.
    expect(await finishCourse(user.id, courseId)).toMatchObject({
      ok: true,
      value: { emailed: false },
    });
    expect(await outboxFor(user.email)).toHaveLength(1);
  });
});

describe('the certificate page and image', () => {
  it('finishes a course at 100% from its own action and then shows it', async () => {
    const { user, cookie } = await member('Alan Turing');
    const courseId = await insertCourse(THIS_PROCESS, user.id, {
      mainTopic: 'Computability',
      lessons: 3,
      allDone: true,
    });
    const before = await call(() =>
      certificatePage.loader({
        request: get(`/certificate/${courseId}`, cookie),
        params: { courseId },
        context: freshContext(),
      }),
    );
    await expect(before.json()).resolves.toMatchObject({ state: 'ready' });

    const finished = await call(() =>
      certificatePage.action({
        request: post(`/certificate/${courseId}`, cookie, { intent: 'finish' }),
        params: { courseId },
        context: freshContext(),
      }),
    );
    expect(finished.status).toBe(302);
    expect(finished.headers.get('Location')).toBe(`/certificate/${courseId}`);

    const after = await call(() =>
      certificatePage.loader({
        request: get(`/certificate/${courseId}`, cookie),
        params: { courseId },
        context: freshContext(),
      }),
    );
    const completion = (await getCompletion(courseId))!;
    await expect(after.json()).resolves.toMatchObject({
      state: 'finished',
      memberName: 'Alan Turing',
      courseTitle: 'Computability',
      certificateId: completion.certificateId,
      date: new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC' }).format(completion.completedAt),
    });

    const download = await call(() =>
      certificateImage.loader({
        request: get(`/certificate/${courseId}/certificate.png?download=1`, cookie),
        params: { courseId },
        context: freshContext(),
      }),
    );
    expect(download.status).toBe(200);
    expect(download.headers.get('Content-Type')).toBe('image/png');
    expect(download.headers.get('Content-Disposition')).toBe(
      'attachment; filename="certificate.png"',
    );
    const png = Buffer.from(await download.arrayBuffer());
    expect(decodePngSize(png)).toEqual({ width: 2000, height: 1414 });

    // The emailed attachment is the same image as the download.
    const [email] = await outboxFor(user.email);
    expect(Buffer.from(email!.attachments[0]!.base64, 'base64').equals(png)).toBe(true);
  });
});

describe('emailing a certificate on request', () => {
  it("mails the caller's own certificate to the caller's own address, ignoring html and email", async () => {
    const { user, cookie } = await member('Margaret Hamilton');
    const courseId = await insertCourse(THIS_PROCESS, user.id, {
      mainTopic: 'Apollo Software',
      lessons: 2,
      allDone: true,
    });
    await finishCourse(user.id, courseId);
    const response = await call(() =>
      sendApi.action({
        request: post('/api/sendcertificate', cookie, {
          courseId,
          html: '<p>Click <a href="https://evil.example">here</a></p>',
          email: 'victim@example.com',
        }),
        params: {},
        context: freshContext(),
      }),
    );
    expect(response.status).toBe(200);
    await expect(response.json()).resolves.toEqual({
      success: true,
      message: 'Certificate sent to your email',
    });
    expect(await outboxFor('victim@example.com')).toHaveLength(0);
    const emails = await outboxFor(user.email);
    expect(emails).toHaveLength(2);
    expect(emails[1]!.html).not.toContain('evil.example');
    expect(emails[1]!.attachments[0]!.filename).toBe('certificate.png');
  });

  it('limits how often a member can ask for the email', async () => {
    const { user, cookie } = await member('Barbara Liskov');
    const courseId = await insertCourse(THIS_PROCESS, user.id, {
      mainTopic: 'Abstraction',
      lessons: 1,
      allDone: true,
    });
    await finishCourse(user.id, courseId);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) {
      const response = await call(() =>
        sendApi.action({
          request: post('/api/sendcertificate', cookie, { courseId }),
          params: {},
          context: freshContext(),
        }),
      );
      statuses.push(response.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect(await outboxFor(user.email)).toHaveLength(6);
  });

  it("refuses a course that is not finished or is someone else's", async () => {
    const owner = await member();
    const other = await member();
    const unfinished = await insertCourse(THIS_PROCESS, owner.user.id, {
      mainTopic: 'Unfinished',
      lessons: 2,
      allDone: false,
    });
    const finished = await insertCourse(THIS_PROCESS, owner.user.id, {
      mainTopic: 'Finished',
      lessons: 1,
      allDone: true,
    });
    await finishCourse(owner.user.id, finished);

    const notFinished = await call(() =>
      sendApi.action({
        request: post('/api/sendcertificate', owner.cookie, { courseId: unfinished }),
        params: {},
        context: freshContext(),
      }),
    );
    expect(notFinished.status).toBe(409);
    const notOwned = await call(() =>
      sendApi.action({
        request: post('/api/sendcertificate', other.cookie, {
          courseId: finished,
          email: other.user.email,
        }),
        params: {},
        context: freshContext(),
      }),
    );
    expect(notOwned.status).toBe(404);
    expect(await outboxFor(other.user.email)).toHaveLength(0);
  });
});

describe('public verification', () => {
  it('confirms name, course and date only', async () => {
    const { user } = await member('Hedy Lamarr');
    const courseId = await insertCourse(THIS_PROCESS, user.id, {
      mainTopic: 'Frequency Hopping',
      lessons: 2,
      allDone: true,
    });
    const result = await finishCourse(user.id, courseId);
    if (!result.ok) throw new Error('not finished');
    const id = result.value.completion.certificateId;
    expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);

    const response = await call(() =>
      verifyPage.loader({
        request: get(`/verify/${id}`, null),
        params: { certificateId: id },
        context: freshContext(),
      }),
    );
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      certificateId: id,
      memberName: 'Hedy Lamarr',
      courseTitle: 'Frequency Hopping',
    });
    expect(JSON.stringify(body)).not.toContain(user.email);
    expect(JSON.stringify(body)).not.toContain(user.id);
    // Typed back by hand, in lower case without dashes, it still matches.
    expect(
      (await getCertificateByPublicId(id.toLowerCase().replace(/-/g, '')))?.certificateId,
    ).toBe(id);
  });

  it('answers an unknown certificate id with a 404', async () => {
    for (const certificateId of ['0000-0000-0000-0000', 'not-an-id', '']) {
      const response = await call(() =>
        verifyPage.loader({
          request: get(`/verify/${certificateId}`, null),
          params: { certificateId },
          context: freshContext(),
        }),
      );
      expect(response.status).toBe(404);
    }
    expect((await database().select().from(tables.courseCompletions)).length).toBeGreaterThan(0);
  });
});

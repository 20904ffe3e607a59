import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { certificateEmailQueue } from '~/queues/certificate-email.server';
import { insertCourse, THIS_PROCESS } from '../support/courses';
import { EMAIL_CLAIM_LEASE_MS, getCompletion } from '~/models/completions.server';
import { finishCourse, retryCertificateEmail } from '~/services/course-completion.server';
import { createUser } from '~/models/users.server';
import { emailCertificate } from '~/services/certificate/email.server';
import { database, tables } from '~/utils/database.server';
import { waitForRedis } from '~/utils/redis.server';

/**
 * The web process dies after claiming the certificate email and before it is
 * sent (here: the send never returns). The email must not be lost: the job
 * queued before the claim sends it once the claim has lapsed, and only once.
 */
vi.mock('~/services/certificate/email.server', async (importOriginal) => {
  const original = await importOriginal<typeof import('~/services/certificate/email.server')>();
  return { ...original, emailCertificate: vi.fn(original.emailCertificate) };
});

beforeAll(async () => {
  await waitForRedis(10_000);
});

afterAll(async () => {
  await certificateEmailQueue.close();
});

const outboxFor = (to: string) => {
  const { outboxEmails } = tables;
  return database().select().from(outboxEmails).where(eq(outboxEmails.to, to));
};

describe('a crash between claiming and sending the certificate email', () => {
  it('does not lose the email: the queued job sends it after the claim lapses', async () => {
    const user = await createUser({
      email: 'crash@example.com',
      name: 'Margaret Hamilton',
      password: 'a-long-password',
    });
    const courseId = await insertCourse(THIS_PROCESS, user.id, {
      mainTopic: 'Apollo Guidance',
      lessons: 2,
      allDone: true,
    });
    const send = vi.mocked(emailCertificate);
    // The first send "crashes": it never returns, as if the process had died.
    send.mockImplementationOnce(() => new Promise<boolean>(() => undefined));

    void finishCourse(user.id, courseId);
    const deadline = Date.now() + 10_000;
    while (send.mock.calls.length === 0 && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 10));
    expect(send).toHaveBeenCalledTimes(1);

    // The retry job was queued before the claim, so it exists despite the crash.
    const job = await certificateEmailQueue.queue().getJob(`certificate-email-${courseId}`);
    expect(job?.data).toEqual({ courseId });
    await expect(job!.isDelayed()).resolves.toBe(true);
    expect((await getCompletion(courseId))!.emailedAt).toBeNull();

    // While the claim is live, nobody else sends (a send may still be under way).
    expect(await retryCertificateEmail(courseId)).toBe('failed');
    expect(await finishCourse(user.id, courseId)).toMatchObject({
      ok: true,
      value: { emailed: false },
    });
    expect(send).toHaveBeenCalledTimes(1);

    // Once the claim has lapsed, the job's try sends it, once.
    const later = new Date(Date.now() + EMAIL_CLAIM_LEASE_MS + 1000);
    expect(await retryCertificateEmail(courseId, later)).toBe('sent');
    expect((await getCompletion(courseId))!.emailedAt).toBeInstanceOf(Date);
    expect(await outboxFor(user.email)).toHaveLength(1);
    expect(await retryCertificateEmail(courseId, later)).toBe('already-sent');
    expect(await finishCourse(user.id, courseId)).toMatchObject({
      ok: true,
      value: { emailed: false },
    });
    expect(await outboxFor(user.email)).toHaveLength(1);
  });

  it('queues the job at every first finish, and the job does nothing once the email went out', async () => {
    const user = await createUser({
      email: 'no-crash@example.com',
      name: 'Mary Jackson',
      password: 'a-long-password',
    });
    const courseId = await insertCourse(THIS_PROCESS, user.id, {
      mainTopic: 'Wind Tunnels',
      lessons: 2,
      allDone: true,
    });
    expect(await finishCourse(user.id, courseId)).toMatchObject({
      ok: true,
      value: { emailed: true },
    });
    const job = await certificateEmailQueue.queue().getJob(`certificate-email-${courseId}`);
    expect(job?.data).toEqual({ courseId });
    expect(await retryCertificateEmail(courseId)).toBe('already-sent');
    expect(await outboxFor(user.email)).toHaveLength(1);
  });
});

import type { Job } from 'bullmq';
import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { lessons } from '../../db/schema';
import { processLesson } from '../../jobs/lesson/processor';
import { createCourseWithLessons, courseStatus } from '~/models/courses.server';
import { getLesson, listLessonsOfCourse } from '~/models/lessons.server';
import { createUser } from '~/models/users.server';
import * as apiUpdate from '~/routes/api/api.update';
import { createSession } from '~/utils/auth.server';
import { db } from '~/utils/db.server';
import { startVendorMocks } from '~/utils/mocks.server';

/**
 * A lesson whose theory comes from somewhere else than its job (an API client's
 * /api/update, while or after the job runs) still ends with its media done,
 * and the client's own image stays. The lesson job runs in this process,
 * against the vendor mocks.
 */
const CLIENT_IMAGE = 'https://client.test/own.png';

beforeAll(() => {
  startVendorMocks();
});

afterEach(() => {
  delete process.env.MOCK_AI_LATENCY_MS;
});

let counter = 0;
async function courseWithOneLesson(lesson: { theory?: string; imageUrl?: string } = {}) {
  counter += 1;
  const user = await createUser({
    email: `media-${counter}@example.com`,
    name: 'Media',
    password: 'long-enough-password',
  });
  const { course, lessons: created } = createCourseWithLessons({
    userId: user.id,
    mainTopic: 'Rust',
    type: 'text',
    topics: [{ title: 'Basics', lessons: [{ title: 'Ownership', ...lesson }] }],
  });
  const cookie = (await createSession(user.id)).split(';')[0]!;
  return { courseId: course.id, lessonId: created[0]!.id, cookie };
}

/** POST /api/update as an API client sends it. */
async function postUpdate(cookie: string, courseId: string, content: unknown) {
  return (await apiUpdate.action({
    request: new Request('http://localhost/api/update', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Cookie: cookie },
      body: JSON.stringify({ courseId, content }),
    }),
    params: {},
    context: {},
  })) as Response;
}

function runJob(lessonId: number, courseId: string) {
  const job = {
    id: `lesson-${lessonId}`,
    data: { lessonId, courseId },
    attemptsMade: 0,
    updateProgress: () => Promise.resolve(),
  } as unknown as Job;
  return processLesson(job);
}

async function whileTheAiAnswers(lessonId: number, courseId: string, meanwhile: () => unknown) {
  process.env.MOCK_AI_LATENCY_MS = '600';
  const running = runJob(lessonId, courseId);
  const deadline = Date.now() + 5_000;
  while (getLesson(lessonId)!.state !== 'running' && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 10));
  await meanwhile();
  return running;
}

describe('a lesson whose theory the client supplies', () => {
  it('is not left generating when /api/update gives theory while its job runs', async () => {
    const { courseId, lessonId, cookie } = await courseWithOneLesson();
    const content = {
      rust: [
        {
          title: 'Basics',
          subtopics: [
            { title: 'Ownership', theory: '<p>Mine</p>', image: CLIENT_IMAGE, done: true },
          ],
        },
      ],
    };
    await whileTheAiAnswers(lessonId, courseId, async () => {
      expect((await postUpdate(cookie, courseId, content)).status).toBe(200);
    });

    const lesson = getLesson(lessonId)!;
    expect(lesson).toMatchObject({
      theory: '<p>Mine</p>',
      imageUrl: CLIENT_IMAGE,
      state: 'done',
      mediaState: 'done',
    });
    expect(courseStatus(courseId).generating).toBe(false);
  });

  it("finishes the media when another writer stored the theory, keeping that writer's image", async () => {
    const { courseId, lessonId } = await courseWithOneLesson();
    await whileTheAiAnswers(lessonId, courseId, () =>
      db()
        .update(lessons)
        .set({ theory: '<p>Elsewhere</p>', state: 'done', imageUrl: CLIENT_IMAGE })
        .where(eq(lessons.id, lessonId))
        .run(),
    );
    expect(getLesson(lessonId)).toMatchObject({
      theory: '<p>Elsewhere</p>',
      imageUrl: CLIENT_IMAGE,
      imageCredit: null,
      mediaState: 'done',
    });
    expect(courseStatus(courseId).generating).toBe(false);
  });

  it('keeps retrying the media of a generated lesson a client echoes back', async () => {
    const { courseId, lessonId, cookie } = await courseWithOneLesson({ theory: '<p>Ours</p>' });
    db().update(lessons).set({ mediaState: 'retrying' }).where(eq(lessons.id, lessonId)).run();
    const content = {
      rust: [
        { title: 'Basics', subtopics: [{ title: 'Ownership', theory: '<p>Ours</p>', done: true }] },
      ],
    };
    expect((await postUpdate(cookie, courseId, content)).status).toBe(200);
    expect(getLesson(lessonId)).toMatchObject({ done: true, mediaState: 'retrying' });
  });

  it("retries only missing media and never replaces the client's image", async () => {
    const withImage = await courseWithOneLesson({ theory: '<p>Mine</p>', imageUrl: CLIENT_IMAGE });
    const without = await courseWithOneLesson({ theory: '<p>Mine too</p>' });
    for (const { lessonId } of [withImage, without])
      db().update(lessons).set({ mediaState: 'retrying' }).where(eq(lessons.id, lessonId)).run();

    await runJob(withImage.lessonId, withImage.courseId);
    await runJob(without.lessonId, without.courseId);

    expect(getLesson(withImage.lessonId)).toMatchObject({
      imageUrl: CLIENT_IMAGE,
      imageCredit: null,
      mediaState: 'done',
    });
    const filled = listLessonsOfCourse(without.courseId)[0]!;
    expect(filled.imageUrl).toMatch(/^\/images\/demo\/photo-\d\.png$/);
    expect(filled.imageCredit).toContain('unsplash.com');
    expect(filled).toMatchObject({ theory: '<p>Mine too</p>', mediaState: 'done' });
  });
});

import type { Job } from 'bullmq';
import { eq } from 'drizzle-orm';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { processLesson } from '../../jobs/lesson/processor';
import { createCourseWithLessons, courseStatus, getCourse } from '~/models/courses.server';
import { getLesson, listLessonsOfCourse } from '~/models/lessons.server';
import { createUser } from '~/models/users.server';
import * as apiCourse from '~/routes/api/api.course';
import * as apiUpdate from '~/routes/api/api.update';
import { createSession } from '~/utils/auth.server';
import { database, tables } from '~/utils/database.server';
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
  const { course, lessons: created } = await createCourseWithLessons({
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
  while ((await getLesson(lessonId))!.state !== 'running' && Date.now() < deadline)
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

    const lesson = (await getLesson(lessonId))!;
    expect(lesson).toMatchObject({
      theory: '<p>Mine</p>',
      imageUrl: CLIENT_IMAGE,
      state: 'done',
      mediaState: 'done',
    });
    expect((await courseStatus(courseId)).generating).toBe(false);
  });

  it("finishes the media when another writer stored the theory, keeping that writer's image", async () => {
    const { courseId, lessonId } = await courseWithOneLesson();
    await whileTheAiAnswers(lessonId, courseId, async () => {
      const { lessons } = tables;
      await database()
        .update(lessons)
        .set({ theory: '<p>Elsewhere</p>', state: 'done', imageUrl: CLIENT_IMAGE })
        .where(eq(lessons.id, lessonId));
    });
    expect(await getLesson(lessonId)).toMatchObject({
      theory: '<p>Elsewhere</p>',
      imageUrl: CLIENT_IMAGE,
      imageCredit: null,
      mediaState: 'done',
    });
    expect((await courseStatus(courseId)).generating).toBe(false);
  });

  it('keeps retrying the media of a generated lesson a client echoes back', async () => {
    const { courseId, lessonId, cookie } = await courseWithOneLesson({ theory: '<p>Ours</p>' });
    const { lessons } = tables;
    await database()
      .update(lessons)
      .set({ mediaState: 'retrying' })
      .where(eq(lessons.id, lessonId));
    const content = {
      rust: [
        { title: 'Basics', subtopics: [{ title: 'Ownership', theory: '<p>Ours</p>', done: true }] },
      ],
    };
    expect((await postUpdate(cookie, courseId, content)).status).toBe(200);
    expect(await getLesson(lessonId)).toMatchObject({ done: true, mediaState: 'retrying' });
  });

  it("retries only missing media and never replaces the client's image", async () => {
    const withImage = await courseWithOneLesson({ theory: '<p>Mine</p>', imageUrl: CLIENT_IMAGE });
    const without = await courseWithOneLesson({ theory: '<p>Mine too</p>' });
    const { lessons } = tables;
    for (const { lessonId } of [withImage, without])
      await database()
        .update(lessons)
        .set({ mediaState: 'retrying' })
        .where(eq(lessons.id, lessonId));

    await runJob(withImage.lessonId, withImage.courseId);
    await runJob(without.lessonId, without.courseId);

    expect(await getLesson(withImage.lessonId)).toMatchObject({
      imageUrl: CLIENT_IMAGE,
      imageCredit: null,
      mediaState: 'done',
    });
    const filled = (await listLessonsOfCourse(without.courseId))[0]!;
    expect(filled.imageUrl).toMatch(/^\/images\/demo\/photo-\d\.png$/);
    expect(filled.imageCredit).toContain('unsplash.com');
    expect(filled).toMatchObject({ theory: '<p>Mine too</p>', mediaState: 'done' });
  });
});

describe('a course saved through POST /api/course', () => {
  /** Saves a course of two written lessons as an API client does; answers its id. */
  async function saveWritten(type: 'text' | 'video', first: { image?: string; youtube?: string }) {
    counter += 1;
    const user = await createUser({
      email: `photo-${counter}@example.com`,
      name: 'Photo',
      password: 'long-enough-password',
      plan: 'yearly',
    });
    const cookie = (await createSession(user.id)).split(';')[0]!;
    const content = {
      rust: [
        {
          title: 'Basics',
          subtopics: [
            { title: 'Ownership', theory: '<p>Own</p>', ...first, done: true },
            { title: 'Borrowing', theory: '<p>Borrow</p>', done: false },
          ],
        },
      ],
    };
    const response = (await apiCourse.action({
      request: new Request('http://localhost/api/course', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Cookie: cookie },
        body: JSON.stringify({ content: JSON.stringify(content), type, mainTopic: 'Rust' }),
      }),
      params: {},
      context: {},
    })) as Response;
    expect(response.status).toBe(200);
    return ((await response.json()) as { courseId: string }).courseId;
  }

  it('gets its card photo like one made on /create, though the client wrote every lesson', async () => {
    // Video and theory: the first lesson's job looks for the photo, and keeps the client's video.
    const video = await saveWritten('video', { youtube: 'dQw4w9WgXcQ' });
    expect((await getCourse(video))!.photoUrl).toBeNull();
    const [first, second] = await listLessonsOfCourse(video);
    expect(first).toMatchObject({ state: 'done', mediaState: 'pending' });
    expect(second).toMatchObject({ state: 'done', mediaState: 'done' });
    await runJob(first!.id, video);
    expect((await getCourse(video))!.photoUrl).toMatch(/^\/images\/demo\/photo-\d\.png$/);
    expect(await getLesson(first!.id)).toMatchObject({
      youtubeId: 'dQw4w9WgXcQ',
      theory: '<p>Own</p>',
      mediaState: 'done',
    });
    expect((await courseStatus(video)).generating).toBe(false);

    // Theory and image without an image: the job finds the first lesson's, which is the photo.
    const bare = await saveWritten('text', {});
    const bareFirst = (await listLessonsOfCourse(bare))[0]!;
    await runJob(bareFirst.id, bare);
    const withImage = (await getLesson(bareFirst.id))!;
    expect(withImage.imageUrl).toMatch(/^\/images\/demo\/photo-\d\.png$/);
    expect((await getCourse(bare))!.photoUrl).toBe(withImage.imageUrl);

    // Theory and image with the client's image: that image is the photo at once, no job.
    const own = await saveWritten('text', { image: CLIENT_IMAGE });
    expect((await getCourse(own))!.photoUrl).toBe(CLIENT_IMAGE);
    expect((await listLessonsOfCourse(own))[0]).toMatchObject({ mediaState: 'done' });
  });
});

import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as apiOutline from '~/routes/api/api.outline.$outlineId';
import * as coursePage from '~/routes/member/course.$courseId';
import * as topicsPage from '~/routes/member/topics.$outlineId';
import { courseStatus } from '~/models/courses.server';
import { listLessonsOfCourse } from '~/models/lessons.server';
import { getOutline } from '~/models/outlines.server';
import { createUser } from '~/models/users.server';
import { createSession } from '~/utils/auth.server';
import { database, databaseDialect } from '~/utils/database.server';
import { startVendorMocks } from '~/utils/mocks.server';
import { spawnWorker, stopWorker, type WorkerProcess } from '../support/worker-process';

/**
 * An outline stored before lessons were called lessons (ADR 0052): its topics held `subtopics`.
 * The `outline_lessons` migration renames them; the outline then opens on /topics, answers the
 * API in the spec's words, and Generate Course writes its lessons. On SQLite and PostgreSQL.
 */
type Handler = (args: {
  request: Request;
  params: Record<string, string>;
  context: { clientIp: string };
}) => Promise<unknown>;

async function call(
  route: { loader?: unknown; action?: unknown },
  options: { path: string; cookie: string; params: Record<string, string>; form?: boolean },
): Promise<unknown> {
  const request = new Request(`http://localhost${options.path}`, {
    method: options.form ? 'POST' : 'GET',
    headers: { Cookie: options.cookie },
    body: options.form ? new URLSearchParams() : undefined,
  });
  const handler = (options.form ? route.action : route.loader) as Handler;
  try {
    return await handler({ request, params: options.params, context: { clientIp: '1.2.3.4' } });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}

/** A statement that returns nothing, by each driver's own method (the same SQL on both). */
async function runRaw(statement: string) {
  const query = sql.raw(statement);
  if (databaseDialect() === 'postgres')
    await (database() as unknown as { execute: (q: typeof query) => Promise<unknown> }).execute(
      query,
    );
  else await database().run(query);
}

/**
 * The rename's migration of this database, applied as drizzle's migrator applies it at the start
 * of an upgraded install (statement by statement). The test database was migrated to the newest
 * schema before the old outline was written, so this is the step that upgrade takes for it.
 */
async function applyRenameMigration() {
  const folder = `migrations/${databaseDialect()}`;
  const journal = JSON.parse(fs.readFileSync(`${folder}/meta/_journal.json`, 'utf8')) as {
    entries: { tag: string }[];
  };
  const entry = journal.entries.find(({ tag }) => tag.endsWith('_outline_lessons'));
  expect(entry, `${folder} has the outline_lessons migration`).toBeDefined();
  const text = fs.readFileSync(`${folder}/${entry!.tag}.sql`, 'utf8');
  for (const statement of text.split('--> statement-breakpoint')) await runRaw(statement);
}

/** What the code before the rename stored: its JSON text, written as it was. */
const OLD_RESULT = JSON.stringify([
  {
    title: 'The Night Sky',
    subtopics: [{ title: 'Finding the Pole Star' }, { title: 'Naming Constellations' }],
  },
  { title: 'Telescopes', subtopics: [{ title: 'Choosing a Telescope' }] },
]);
const LESSONS = [
  ['The Night Sky', ['Finding the Pole Star', 'Naming Constellations']],
  ['Telescopes', ['Choosing a Telescope']],
] as const;

let worker: WorkerProcess | undefined;

beforeAll(() => {
  startVendorMocks();
});

afterAll(async () => {
  if (worker) await stopWorker(worker, 'SIGTERM');
});

describe('an outline stored before lessons were called lessons', () => {
  it('opens on /topics and in the API after the migration, and its lessons generate', async () => {
    const user = await createUser({
      email: 'stargazer@example.com',
      name: 'Stargazer',
      password: 'long-enough-password',
      plan: 'free',
    });
    const cookie = (await createSession(user.id)).split(';')[0]!;
    const outlineId = 'outline-before-the-rename';
    await runRaw(
      `INSERT INTO outlines (id, user_id, main_topic, subtopics, topic_count, course_type, state, result)
       VALUES ('${outlineId}', '${user.id}', 'Astronomy', '["Telescopes"]', 5, 'text', 'done', '${OLD_RESULT}')`,
    );
    // Before the migration the row holds the old words: what this test is about.
    expect(JSON.stringify((await getOutline(outlineId))!.result)).toContain('"subtopics"');

    await applyRenameMigration();
    await applyRenameMigration(); // and again: a renamed outline is left as it is

    const expected = LESSONS.map(([title, lessons]) => ({
      title,
      lessons: lessons.map((lesson) => ({ title: lesson })),
    }));
    const outline = (await getOutline(outlineId))!;
    expect(outline.result).toEqual(expected);
    // The member's typed sub-topics are not lessons: they keep their column and their word.
    expect(outline.subtopics).toEqual(['Telescopes']);

    const page = (await call(topicsPage, {
      path: `/topics/${outlineId}`,
      cookie,
      params: { outlineId },
    })) as { status: { state: string; topics: unknown } };
    expect(page.status).toMatchObject({ state: 'done', topics: expected });

    // An API client reads it in the spec's words.
    const api = (await call(apiOutline, {
      path: `/api/outline/${outlineId}`,
      cookie,
      params: { outlineId },
    })) as Response;
    expect(api.status).toBe(200);
    const answer = (await api.json()) as { outline: { topics: unknown } };
    expect(answer.outline.topics).toEqual(
      LESSONS.map(([title, lessons]) => ({
        title,
        subtopics: lessons.map((lesson) => ({ title: lesson })),
      })),
    );

    // Generate Course, as the page's button posts it, then the worker writes every lesson.
    const generated = (await call(topicsPage, {
      path: `/topics/${outlineId}`,
      cookie,
      params: { outlineId },
      form: true,
    })) as Response;
    expect(generated.status).toBe(302);
    const courseId = generated.headers.get('Location')!.split('/course/').pop()!;
    worker = spawnWorker({ JOB_BACKOFF_BASE_MS: '100' });
    await worker.ready;
    const deadline = Date.now() + 45_000;
    while ((await courseStatus(courseId)).generating) {
      if (Date.now() > deadline) throw new Error('The lessons were not written in time');
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const lessons = await listLessonsOfCourse(courseId);
    expect(lessons.map((lesson) => lesson.title)).toEqual(LESSONS.flatMap(([, titles]) => titles));
    expect(lessons.every((lesson) => lesson.state === 'done' && Boolean(lesson.theory))).toBe(true);

    // The course page opens on its first lesson, written.
    const course = (await call(coursePage, {
      path: `/course/${courseId}`,
      cookie,
      params: { courseId },
    })) as {
      topics: { title: string; lessons: { title: string }[] }[];
      lesson: { title: string; theory: string | null };
    };
    expect(course.topics.map((topic) => [topic.title, topic.lessons.map((l) => l.title)])).toEqual(
      LESSONS.map(([title, titles]) => [title, [...titles]]),
    );
    expect(course.lesson.title).toBe('Finding the Pole Star');
    expect(course.lesson.theory).toBeTruthy();
  });
});

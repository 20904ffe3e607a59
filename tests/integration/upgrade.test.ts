import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MOCK_SIMPLER_START } from '../../mocks/ai-answers';
import { startApp, type RunningApp } from '../support/app-process';
import { builtEntry } from '../support/built';
import { createTestDatabase, type TestDatabase } from '../support/postgres';
import {
  listFixtures,
  readPostgresTables,
  readSqliteTables,
  restorePostgresFixture,
  restoreSqliteFixture,
  rowCounts,
  rowsLostOrChanged,
  type Fixture,
  type Tables,
} from '../support/upgrade-fixture';

/**
 * An upgrade in place (docs/upgrading.md, ADR 0050): the database an earlier release wrote,
 * made by that release's own build (tests/fixtures/upgrade/<version>/), is prepared by today's
 * build as its start prepares it (every migration, then the seed), and must still hold every row
 * of every table it held, unchanged; then today's app runs on it, a member signs in with the
 * password they chose under the old release, opens their course and has a new lesson written.
 * On SQLite here, on PostgreSQL in the integration-postgres project.
 */
const dialect = process.env.COURSEGEN_TEST_DATABASE === 'postgres' ? 'postgres' : 'sqlite';
const { version: today } = JSON.parse(fs.readFileSync('package.json', 'utf8')) as {
  version: string;
};

/**
 * `table.column`s a migration is meant to rewrite or drop, each with its migration and reason:
 * their values are not compared here, but by a test of that migration's own below.
 */
const REWRITTEN_BY_MIGRATIONS: Record<string, string> = {
  'outlines.result': "outline_lessons (ADR 0052): each topic's `subtopics` renamed `lessons`",
};

/** Tables the story of every fixture fills (the members, courses, lessons, ...). */
const FILLED = [
  'users',
  'courses',
  'lessons',
  'flashcards',
  'flashcard_reviews',
  'quiz_attempts',
  'subscriptions',
  'receipts',
];

const fixtures = listFixtures();

describe.each(fixtures.map((fixture) => [fixture.manifest.version, fixture] as const))(
  `upgrading ${dialect} from %s`,
  (_version, fixture: Fixture) => {
    const made = fixture.manifest.databases[dialect];
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coursegen-upgrade-'));
    const sessionSecret = randomBytes(32).toString('hex');
    let database: TestDatabase | undefined;
    let before: Tables;
    let after: Tables;
    let prepared: ReturnType<typeof spawnSync>;
    let app: RunningApp | undefined;

    const readTables = () =>
      database
        ? readPostgresTables(database.url)
        : Promise.resolve(readSqliteTables(path.join(dataDir, 'coursegen.sqlite')));
    const databaseEnv = (): Record<string, string> =>
      database ? { DATABASE_URL: database.url, SESSION_SECRET: sessionSecret } : {};

    beforeAll(async () => {
      if (dialect === 'postgres') {
        database = await createTestDatabase('upgrade');
        restorePostgresFixture(fixture, database.url);
      } else {
        restoreSqliteFixture(fixture, dataDir);
      }
      before = await readTables();
      // What the start runs before any process serves: migrations, then the seed.
      prepared = spawnSync(process.execPath, [builtEntry('prepare')], {
        env: {
          ...process.env,
          NODE_ENV: 'production',
          DATA_DIR: dataDir,
          ...databaseEnv(),
          ADMIN_EMAIL: made.story.admin.email,
          LOG_LEVEL: 'warn',
        },
        encoding: 'utf8',
        timeout: 60_000,
      });
      after = await readTables();
    }, 120_000);

    afterAll(async () => {
      await app?.stop();
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('starts from the database the release made, with every part of its story in it', () => {
      expect(rowCounts(before)).toEqual(made.rows);
      for (const table of FILLED)
        expect(made.rows[table], `${table} rows in the fixture`).toBeGreaterThan(0);
    });

    it("keeps every row of every table through today's migrations, unchanged", () => {
      expect(prepared.status, `${String(prepared.stdout)}\n${String(prepared.stderr)}`).toBe(0);
      expect(rowsLostOrChanged(before, after, REWRITTEN_BY_MIGRATIONS)).toEqual([]);
      // Every migration of today's build is recorded as applied, once.
      const journal = JSON.parse(
        fs.readFileSync(`migrations/${dialect}/meta/_journal.json`, 'utf8'),
      ) as { entries: unknown[] };
      const applied = after.get(
        dialect === 'postgres' ? 'drizzle.__drizzle_migrations' : '__drizzle_migrations',
      );
      expect(applied?.rows).toHaveLength(journal.entries.length);
    });

    it('renames the lessons of stored outlines, and changes nothing else of them', () => {
      type Topic = { subtopics?: unknown } & Record<string, unknown>;
      // SQLite answers JSON columns as text, PostgreSQL as values.
      const value = (stored: unknown) =>
        (typeof stored === 'string' ? JSON.parse(stored) : stored) as Topic[] | null;
      // A fixture made after the rename holds lessons already: those stay as they are.
      const renamed = (topics: Topic[] | null) =>
        topics?.map(({ subtopics, ...topic }) =>
          subtopics === undefined ? topic : { ...topic, lessons: subtopics },
        ) ?? null;
      const now = new Map(after.get('outlines')!.rows.map((row) => [row.id, row]));
      const old = before.get('outlines')!.rows;
      expect(old.some((row) => row.result !== null)).toBe(true);
      for (const row of old)
        expect(value(now.get(row.id)!.result), `outline ${String(row.id)}`).toEqual(
          renamed(value(row.result)),
        );
    });

    describe("today's app on the upgraded database", () => {
      beforeAll(async () => {
        app = await startApp({ DATA_DIR: dataDir, ...databaseEnv() });
      }, 120_000);

      /** Signs in on /signin as a person does; the session cookie it set. */
      async function signIn(email: string, password: string) {
        const response = await fetch(`${app!.baseURL}/signin`, {
          method: 'POST',
          headers: { Origin: app!.baseURL },
          body: new URLSearchParams({ email, password }),
          redirect: 'manual',
        });
        expect(response.status, `signing in as ${email}`).toBe(302);
        const session = response.headers
          .getSetCookie()
          .find((cookie) => cookie.startsWith('__session='));
        expect(session).toBeDefined();
        return session!.split(';')[0]!;
      }

      it('answers /healthz with its own version', async () => {
        const health = (await (await fetch(`${app!.baseURL}/healthz`)).json()) as {
          status: string;
          version: string;
        };
        expect(health).toMatchObject({ status: 'ok', version: today });
      });

      it("signs a member in with the old release's password, opens their course and writes new lessons", async () => {
        const member = made.story.members.find((someone) => someone.plan === 'monthly')!;
        const courseId = member.courseIds[0]!;
        const cookie = await signIn(member.email, member.password);
        const get = (route: string) =>
          fetch(`${app!.baseURL}${route}`, { headers: { Cookie: cookie }, redirect: 'manual' });
        const postJson = (route: string, body: unknown) =>
          fetch(`${app!.baseURL}${route}`, {
            method: 'POST',
            headers: { Cookie: cookie, 'Content-Type': 'application/json' },
            body: JSON.stringify(body),
          });

        const course = await get(`/course/${courseId}`);
        expect(course.status).toBe(200);
        const page = await course.text();
        const stored = before.get('courses')!.rows.find((row) => row.id === courseId)!;
        expect(page).toContain(String(stored.main_topic));
        const lessonId = /name="lessonId" value="(\d+)"/.exec(page)?.[1];
        expect(lessonId).toBeDefined();

        // A lesson of the old course written again by today's worker.
        const started = await postJson(`/regenerate/${lessonId}`, {
          intent: 'regenerate',
          instruction: 'simpler',
        });
        expect(started.status).toBe(202);
        const deadline = Date.now() + 60_000;
        for (;;) {
          const status = (await (await get(`/regenerate/${lessonId}`)).json()) as {
            state: string;
          };
          if (status.state === 'done') break;
          expect(status.state, app!.output().slice(-3000)).not.toBe('failed');
          expect(Date.now(), `lesson ${lessonId} not rewritten`).toBeLessThan(deadline);
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        expect(await (await get(`/course/${courseId}?lesson=${lessonId}`)).text()).toContain(
          MOCK_SIMPLER_START,
        );

        // A new course beside the old ones, its lesson written by the AI.
        const created = await postJson('/api/course', {
          mainTopic: 'Upgrades',
          type: 'text',
          content: { upgrades: [{ title: 'In place', subtopics: [{ title: 'Backups first' }] }] },
        });
        expect(created.status).toBe(200);
        const { courseId: newCourse } = (await created.json()) as { courseId: string };
        for (;;) {
          const status = (await (await get(`/status/course/${newCourse}`)).json()) as {
            ready: number;
            total: number;
          };
          if (status.total > 0 && status.ready === status.total) break;
          expect(Date.now(), `course ${newCourse} not written`).toBeLessThan(deadline);
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        const courses = (await (await get('/api/courses')).json()) as { _id: string }[];
        expect(courses.map((listed) => listed._id)).toEqual(
          expect.arrayContaining([...member.courseIds, newCourse]),
        );
      });

      it('shows its version in the admin panel to the admin the old release seeded', async () => {
        const { admin } = made.story;
        const cookie = await signIn(admin.email, admin.password);
        const dashboard = await fetch(`${app!.baseURL}/dashboard`, { headers: { Cookie: cookie } });
        expect(dashboard.status).toBe(200);
        expect((await dashboard.text()).replace(/<!-- -->/g, '')).toMatch(
          new RegExp(`CourseGen <span data-testid="app-version">${today.replace(/\./g, '\\.')}<`),
        );
      });
    });
  },
);

it('has a fixture of the previous release to upgrade from', () => {
  expect(fixtures.map((fixture) => fixture.manifest.version)).not.toEqual([]);
});

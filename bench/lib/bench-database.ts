import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createCookie } from '@remix-run/node';
import pg from 'pg';
import { databaseFile, openDatabase } from '../../db/connection';
import type { RunningApp } from '../../tests/support/app-process';
import { hashToken, newSecretToken } from '~/utils/ids.server';
import type { BulkData, UserRow } from './bulk-data';

/**
 * A running app's database as a benchmark reaches it from outside the app: bulk rows written
 * straight into it (SQLite: one transaction of prepared inserts, as bench/admin.ts does;
 * PostgreSQL: batches of `INSERT ... SELECT FROM unnest(...)`), sessions made as
 * app/utils/auth.server.ts makes them, and the few counts a burst needs. The same calls on either
 * database, so a benchmark treats both alike.
 */
export interface BenchDatabase {
  name: 'SQLite' | 'PostgreSQL';
  app: RunningApp;
  /** Writes the bulk rows, then ANALYZE (PostgreSQL: VACUUM ANALYZE); answers the seconds it took. */
  seed: (data: BulkData) => Promise<number>;
  addMembers: (users: UserRow[]) => Promise<void>;
  /** A session per member, and its `__session=...` cookie, in the same order. */
  signIn: (userIds: string[]) => Promise<string[]>;
  /** Of these outlines, the ones written. */
  outlinesDone: (outlineIds: string[]) => Promise<Set<string>>;
  /** The courses made from these outlines (with lessons), their lessons, and how many are written. */
  lessonCounts: (outlineIds: string[]) => Promise<LessonCounts>;
  serverVersion: () => Promise<string>;
  close: () => Promise<void>;
}

export interface LessonCounts {
  courses: number;
  lessons: number;
  lessonsDone: number;
}

const SESSION_MS = 24 * 3600 * 1000;

async function cookies(secret: string, tokens: string[]) {
  const cookie = createCookie('__session', { path: '/', httpOnly: true, secrets: [secret] });
  const values: string[] = [];
  for (const token of tokens) values.push((await cookie.serialize(token)).split(';')[0]!);
  return values;
}

/** The app's SQLite file (DATA_DIR/coursegen.sqlite), on a connection of its own (WAL). */
export function sqliteBenchDatabase(app: RunningApp): BenchDatabase {
  const sqlite = openDatabase(databaseFile(app.dataDir)).$client;
  const addUser = sqlite.prepare(
    `insert into users (id, email, name, password_hash, plan, role, created_at, updated_at) values (?, ?, ?, 'x', ?, ?, ?, ?)`,
  );
  const addUsers = sqlite.transaction((users: UserRow[]) => {
    for (const user of users)
      addUser.run(
        user.id,
        user.email,
        user.name,
        user.plan,
        user.role,
        user.createdAt,
        user.createdAt,
      );
  });
  return {
    name: 'SQLite',
    app,
    async seed(data) {
      const started = performance.now();
      sqlite.transaction(() => {
        addUsers(data.users);
        const addCourse = sqlite.prepare(
          `insert into courses (id, user_id, main_topic, type, created_at, updated_at) values (?, ?, ?, ?, ?, ?)`,
        );
        for (const course of data.courses)
          addCourse.run(
            course.id,
            course.userId,
            course.mainTopic,
            course.type,
            course.createdAt,
            course.createdAt,
          );
        const addTopic = sqlite.prepare(
          `insert into topics (id, course_id, position, title) values (?, ?, ?, ?)`,
        );
        for (const topic of data.topics)
          addTopic.run(topic.id, topic.courseId, topic.position, topic.title);
        const addLesson = sqlite.prepare(
          `insert into lessons (id, course_id, topic_id, position, ordinal, title, theory, done, state, attempts, generated_at, media_state)
           values (?, ?, ?, ?, ?, ?, ?, 0, 'done', 1, ?, 'done')`,
        );
        for (const lesson of data.lessons)
          addLesson.run(
            lesson.id,
            lesson.courseId,
            lesson.topicId,
            lesson.position,
            lesson.ordinal,
            lesson.title,
            lesson.theory,
            lesson.generatedAt,
          );
      })();
      sqlite.exec('analyze');
      return (performance.now() - started) / 1000;
    },
    async addMembers(users) {
      addUsers(users);
    },
    async signIn(userIds) {
      const tokens = userIds.map(() => newSecretToken());
      const addSession = sqlite.prepare(
        'insert into sessions (id, user_id, expires_at, created_at) values (?, ?, ?, ?)',
      );
      const now = Date.now();
      sqlite.transaction(() => {
        userIds.forEach((userId, i) =>
          addSession.run(hashToken(tokens[i]!), userId, now + SESSION_MS, now),
        );
      })();
      const secret = fs.readFileSync(path.join(app.dataDir, 'session-secret'), 'utf8').trim();
      return cookies(secret, tokens);
    },
    async outlinesDone(outlineIds) {
      const rows = sqlite
        .prepare(
          `select id from outlines where id in (select value from json_each(?)) and state = 'done'`,
        )
        .all(JSON.stringify(outlineIds)) as { id: string }[];
      return new Set(rows.map((row) => row.id));
    },
    async lessonCounts(outlineIds) {
      const row = sqlite
        .prepare(
          `select count(distinct course_id) as courses, count(*) as lessons,
             coalesce(sum(state = 'done'), 0) as lessonsDone from lessons
           where course_id in (select course_id from outlines where id in (select value from json_each(?)))`,
        )
        .get(JSON.stringify(outlineIds)) as LessonCounts;
      return row;
    },
    async serverVersion() {
      return `SQLite ${(sqlite.prepare('select sqlite_version() as v').get() as { v: string }).v}`;
    },
    async close() {
      sqlite.close();
    },
  };
}

const iso = (ms: number) => new Date(ms).toISOString();

/** Rows in batches of `size`, each one `INSERT ... SELECT * FROM unnest($1::type[], ...)`. */
async function insertColumns<Row>(
  client: pg.PoolClient,
  table: string,
  columns: [name: string, type: string, value: (row: Row) => unknown][],
  rows: Row[],
  size = 5_000,
) {
  const names = columns.map(([name]) => name).join(', ');
  const arrays = columns.map(([, type], i) => `$${i + 1}::${type}[]`).join(', ');
  const text = `insert into ${table} (${names}) select * from unnest(${arrays})`;
  for (let start = 0; start < rows.length; start += size) {
    const batch = rows.slice(start, start + size);
    await client.query(
      text,
      columns.map(([, , value]) => batch.map(value)),
    );
  }
}

const userColumns: [string, string, (row: UserRow) => unknown][] = [
  ['id', 'text', (u) => u.id],
  ['email', 'text', (u) => u.email],
  ['name', 'text', (u) => u.name],
  ['password_hash', 'text', () => 'x'],
  ['plan', 'text', (u) => u.plan],
  ['role', 'text', (u) => u.role],
  ['created_at', 'timestamptz', (u) => iso(u.createdAt)],
  ['updated_at', 'timestamptz', (u) => iso(u.createdAt)],
];

/** The PostgreSQL database at `url` the app runs on; the cookie secret is its SESSION_SECRET. */
export function postgresBenchDatabase(
  app: RunningApp,
  url: string,
  sessionSecret: string,
): BenchDatabase {
  const pool = new pg.Pool({ connectionString: url, max: 2, application_name: 'coursegen-bench' });
  const inTransaction = async (work: (client: pg.PoolClient) => Promise<void>) => {
    const client = await pool.connect();
    try {
      await client.query('begin');
      await work(client);
      await client.query('commit');
    } catch (error) {
      await client.query('rollback');
      throw error;
    } finally {
      client.release();
    }
  };
  return {
    name: 'PostgreSQL',
    app,
    async seed(data) {
      const started = performance.now();
      await inTransaction(async (client) => {
        await insertColumns(client, 'users', userColumns, data.users);
        await insertColumns(
          client,
          'courses',
          [
            ['id', 'text', (c) => c.id],
            ['user_id', 'text', (c) => c.userId],
            ['main_topic', 'text', (c) => c.mainTopic],
            ['type', 'text', (c) => c.type],
            ['created_at', 'timestamptz', (c) => iso(c.createdAt)],
            ['updated_at', 'timestamptz', (c) => iso(c.createdAt)],
          ],
          data.courses,
          10_000,
        );
        await insertColumns(
          client,
          'topics',
          [
            ['id', 'integer', (t) => t.id],
            ['course_id', 'text', (t) => t.courseId],
            ['position', 'integer', (t) => t.position],
            ['title', 'text', (t) => t.title],
          ],
          data.topics,
          10_000,
        );
        await insertColumns(
          client,
          'lessons',
          [
            ['id', 'integer', (l) => l.id],
            ['course_id', 'text', (l) => l.courseId],
            ['topic_id', 'integer', (l) => l.topicId],
            ['position', 'integer', (l) => l.position],
            ['ordinal', 'integer', (l) => l.ordinal],
            ['title', 'text', (l) => l.title],
            ['theory', 'text', (l) => l.theory],
            ['done', 'boolean', () => false],
            ['state', 'text', () => 'done'],
            ['attempts', 'integer', () => 1],
            ['generated_at', 'timestamptz', (l) => iso(l.generatedAt)],
            ['media_state', 'text', () => 'done'],
          ],
          data.lessons,
          2_000,
        );
        // Ids given explicitly: the identity sequences go on after them, as SQLite's rowids do.
        for (const table of ['topics', 'lessons'])
          await client.query(
            `select setval(pg_get_serial_sequence('${table}', 'id'), (select max(id) from ${table}))`,
          );
      });
      // VACUUM too: autovacuum does it on its own after a bulk insert (PostgreSQL 13+), and would
      // otherwise do it in the middle of the measurements; it sets the visibility map the
      // index-only scans of counts rely on.
      await pool.query('vacuum analyze');
      return (performance.now() - started) / 1000;
    },
    async addMembers(users) {
      await inTransaction((client) => insertColumns(client, 'users', userColumns, users));
    },
    async signIn(userIds) {
      const tokens = userIds.map(() => newSecretToken());
      const now = Date.now();
      await inTransaction((client) =>
        insertColumns(
          client,
          'sessions',
          [
            ['id', 'text', (i: number) => hashToken(tokens[i]!)],
            ['user_id', 'text', (i) => userIds[i]],
            ['expires_at', 'timestamptz', () => iso(now + SESSION_MS)],
            ['created_at', 'timestamptz', () => iso(now)],
          ],
          userIds.map((_, i) => i),
        ),
      );
      return cookies(sessionSecret, tokens);
    },
    async outlinesDone(outlineIds) {
      const { rows } = await pool.query<{ id: string }>(
        `select id from outlines where id = any($1::text[]) and state = 'done'`,
        [outlineIds],
      );
      return new Set(rows.map((row) => row.id));
    },
    async lessonCounts(outlineIds) {
      const { rows } = await pool.query<LessonCounts>(
        `select count(distinct course_id)::int as "courses", count(*)::int as "lessons", (count(*) filter (where state = 'done'))::int as "lessonsDone"
         from lessons where course_id in (select course_id from outlines where id = any($1::text[]))`,
        [outlineIds],
      );
      return rows[0]!;
    },
    async serverVersion() {
      const { rows } = await pool.query<{ server_version: string }>('show server_version');
      return `PostgreSQL ${rows[0]!.server_version}`;
    },
    async close() {
      await pool.end();
    },
  };
}

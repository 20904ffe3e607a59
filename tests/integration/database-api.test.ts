import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { and, asc, count, desc, eq, is, lt, or, sql } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import { SQLiteTable } from 'drizzle-orm/sqlite-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDatabase, openDatabase } from '../../db/connection';
import { migratePostgres } from '../../db/postgres';
import {
  closeDatabase,
  database,
  databaseDialect,
  first,
  isDatabaseBusy,
  isUniqueViolation,
  postgresDataLayer,
  sqliteDataLayer,
  tables,
  type DataLayer,
} from '~/utils/database.server';
import { describeDatabase } from '~/utils/database-selection.server';
import { env, resetEnvForTests } from '~/utils/env.server';
import { readOrCreateInstallId } from '~/utils/install-id.server';
import { postgresOtherWriter } from '../support/other-writer';
import { createTestDatabase, type TestDatabase } from '../support/postgres';

/**
 * The data layer model functions will be written against (ADR 0039), on both databases: the
 * same calls, the same answers.
 */
const folders: string[] = [];
const databases: TestDatabase[] = [];
afterAll(async () => {
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
  for (const database of databases) await database.drop();
});

async function openLayer(dialect: 'sqlite' | 'postgres'): Promise<DataLayer> {
  if (dialect === 'sqlite') {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'coursegen-data-layer-'));
    folders.push(folder);
    const connection = openDatabase(path.join(folder, 'coursegen.sqlite'));
    migrateDatabase(connection);
    return sqliteDataLayer(connection.$client, { onClose: () => connection.$client.close() });
  }
  const created = await createTestDatabase('data_layer');
  databases.push(created);
  await migratePostgres(created.url);
  return postgresDataLayer({ url: created.url, poolSize: 5 });
}

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
};
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let serial = 0;
const member = (email = `member${(serial += 1)}@example.com`) => ({
  id: `user-${(serial += 1)}`,
  email,
  name: 'Member',
  passwordHash: 'x',
});

describe.each(['sqlite', 'postgres'] as const)('the data layer on %s', (dialect) => {
  let layer: DataLayer;
  beforeAll(async () => {
    layer = await openLayer(dialect);
  });
  afterAll(() => layer.close());

  it('creates, reads, updates and deletes, with affected rows from returning()', async () => {
    const { users, courses, topics } = layer.tables;
    const db = layer.database();
    const [created] = await db.insert(users).values(member()).returning();
    expect(created).toMatchObject({ plan: 'free', role: 'member' });
    expect(await first(db.select().from(users).where(eq(users.id, created!.id)))).toEqual(created);
    expect(await first(db.select().from(users).where(eq(users.id, 'nobody')))).toBeUndefined();

    await db
      .insert(courses)
      .values({ id: 'c-crud', userId: created!.id, mainTopic: 'T', type: 'text' });
    const ids = await db
      .insert(topics)
      .values(
        [0, 1, 2].map((position) => ({ courseId: 'c-crud', position, title: `t${position}` })),
      )
      .returning({ id: topics.id });
    expect(ids.map(({ id }) => typeof id)).toEqual(['number', 'number', 'number']);
    expect(ids[2]!.id - ids[0]!.id).toBe(2);

    const updated = await db
      .update(users)
      .set({ plan: 'monthly' })
      .where(eq(users.id, created!.id))
      .returning({ id: users.id });
    expect(updated).toEqual([{ id: created!.id }]);
    expect(
      await db.update(users).set({ plan: 'yearly' }).where(eq(users.id, 'nobody')).returning(),
    ).toEqual([]);

    // Deleting the member cascades to their course and its topics (foreign keys on both).
    expect(
      await db.delete(users).where(eq(users.id, created!.id)).returning({ id: users.id }),
    ).toHaveLength(1);
    expect(await db.select().from(topics).where(eq(topics.courseId, 'c-crud'))).toEqual([]);
  });

  it('runs a query built once with placeholders (the hot paths keep their prepared statements)', async () => {
    const { users } = layer.tables;
    const db = layer.database();
    const owner = member();
    await db.insert(users).values(owner);
    const byId = db
      .select({ email: users.email })
      .from(users)
      .where(eq(users.id, sql.placeholder('id')))
      .prepare();
    expect(await byId.execute({ id: owner.id })).toEqual([{ email: owner.email }]);
    expect(await byId.execute({ id: 'nobody' })).toEqual([]);
  });

  it('upserts and writes idempotently', async () => {
    const { users, courses, topics, lessons, lessonNotes, policies } = layer.tables;
    const db = layer.database();
    const owner = member();
    await db.insert(users).values(owner);
    await db
      .insert(courses)
      .values({ id: 'c-upsert', userId: owner.id, mainTopic: 'T', type: 'text' });
    const [topic] = await db
      .insert(topics)
      .values({ courseId: 'c-upsert', position: 0, title: 't' })
      .returning();
    const [lesson] = await db
      .insert(lessons)
      .values({ courseId: 'c-upsert', topicId: topic!.id, position: 0, title: 'l' })
      .returning();

    const save = (body: string) =>
      db
        .insert(lessonNotes)
        .values({ userId: owner.id, lessonId: lesson!.id, body, revision: 1 })
        .onConflictDoUpdate({
          target: [lessonNotes.userId, lessonNotes.lessonId],
          set: { body, revision: sql`${lessonNotes.revision} + 1`, updatedAt: new Date() },
        })
        .returning({ body: lessonNotes.body, revision: lessonNotes.revision });
    expect(await save('first')).toEqual([{ body: 'first', revision: 1 }]);
    expect(await save('second')).toEqual([{ body: 'second', revision: 2 }]);

    // The same write twice (a replayed webhook, a retried job): the second changes nothing.
    const once = () =>
      db
        .insert(policies)
        .values({ key: 'terms', html: '<p>v1</p>' })
        .onConflictDoNothing()
        .returning();
    expect(await once()).toHaveLength(1);
    expect(await once()).toEqual([]);
  });

  it('pages by keyset without repeating or skipping a row when rows arrive meanwhile', async () => {
    const { users, courses } = layer.tables;
    const db = layer.database();
    const owner = member();
    await db.insert(users).values(owner);
    const base = Date.UTC(2026, 0, 1);
    // Pairs share a creation time: the id breaks the tie.
    await db.insert(courses).values(
      Array.from({ length: 25 }, (_, i) => ({
        id: `k-${String(i).padStart(2, '0')}`,
        userId: owner.id,
        mainTopic: `Course ${i}`,
        type: 'text' as const,
        createdAt: new Date(base + Math.floor(i / 2) * 1000),
      })),
    );
    const page = (after?: { createdAt: Date; id: string }) =>
      db
        .select({ id: courses.id, createdAt: courses.createdAt })
        .from(courses)
        .where(
          and(
            eq(courses.userId, owner.id),
            after &&
              or(
                lt(courses.createdAt, after.createdAt),
                and(eq(courses.createdAt, after.createdAt), lt(courses.id, after.id)),
              ),
          ),
        )
        .orderBy(desc(courses.createdAt), desc(courses.id))
        .limit(7);

    const seen: string[] = [];
    let rows = await page();
    while (rows.length > 0) {
      seen.push(...rows.map((row) => row.id));
      if (seen.length === 7)
        await db
          .insert(courses)
          .values({ id: 'k-new', userId: owner.id, mainTopic: 'New', type: 'text' });
      rows = await page(rows.at(-1));
    }
    const everyOne = Array.from(
      { length: 25 },
      (_, i) => `k-${String(i).padStart(2, '0')}`,
    ).reverse();
    expect(seen).toEqual(everyOne);
  });

  it('counts as numbers, whole and grouped', async () => {
    const { users, courses } = layer.tables;
    const db = layer.database();
    const owner = member();
    await db.insert(users).values(owner);
    await db.insert(courses).values(
      ['text', 'text', 'video'].map((type, i) => ({
        id: `count-${i}`,
        userId: owner.id,
        mainTopic: 'T',
        type: type as 'text' | 'video',
      })),
    );
    expect(await db.$count(courses, eq(courses.userId, owner.id))).toBe(3);
    const [total] = await db
      .select({ n: count() })
      .from(courses)
      .where(eq(courses.userId, owner.id));
    expect(total).toEqual({ n: 3 });
    const byType = await db
      .select({ type: courses.type, n: count() })
      .from(courses)
      .where(eq(courses.userId, owner.id))
      .groupBy(courses.type)
      .orderBy(asc(courses.type));
    expect(byType).toEqual([
      { type: 'text', n: 2 },
      { type: 'video', n: 1 },
    ]);
  });

  it('keeps JSON columns as the values written', async () => {
    const { users, outlines, subscriptions } = layer.tables;
    const db = layer.database();
    const owner = member();
    await db.insert(users).values(owner);
    const result = [{ title: 'Ünïcode "quotes"', lessons: [{ title: 'a' }, { title: 'b' }] }];
    await db.insert(outlines).values({
      id: 'o-json',
      userId: owner.id,
      mainTopic: 'T',
      subtopics: ['one', 'two'],
      topicCount: 5,
      courseType: 'text',
      result,
    });
    const outline = await first(db.select().from(outlines).where(eq(outlines.id, 'o-json')));
    expect(outline).toMatchObject({ subtopics: ['one', 'two'], result });
    const customer = {
      email: 'a@b.c',
      firstName: 'A',
      lastName: 'B',
      address: '1 Road',
      postalCode: '123',
      country: 'IN',
    };
    await db.insert(subscriptions).values({
      id: 's-json',
      userId: owner.id,
      provider: 'paypal',
      providerSubscriptionId: 'I-1',
      plan: 'monthly',
      amountCents: 800,
      customer,
    });
    const row = await first(db.select().from(subscriptions).where(eq(subscriptions.id, 's-json')));
    expect(row!.customer).toEqual(customer);
    expect(
      (await first(db.select().from(outlines).where(eq(outlines.id, 'missing'))))?.result,
    ).toBeUndefined();
  });

  it('refuses a second account whose email differs only in case', async () => {
    const { users } = layer.tables;
    const db = layer.database();
    await db.insert(users).values(member('Ann.Case@Example.com'));
    const duplicate = db.insert(users).values(member('ann.case@EXAMPLE.COM'));
    const error = await duplicate.then(
      () => undefined,
      (refused: unknown) => refused,
    );
    expect(isUniqueViolation(error)).toBe(true);
    const found = await first(
      db
        .select()
        .from(users)
        .where(eq(sql`lower(${users.email})`, 'ann.case@example.com')),
    );
    expect(found?.email).toBe('Ann.Case@Example.com');
  });

  it('round-trips timestamps to the millisecond, booleans, and fills default times', async () => {
    const { users, courses, topics, lessons } = layer.tables;
    const db = layer.database();
    const owner = member();
    const before = Date.now();
    const [created] = await db.insert(users).values(owner).returning();
    expect(created!.createdAt).toBeInstanceOf(Date);
    expect(Math.abs(created!.createdAt.getTime() - before)).toBeLessThan(60_000);

    await db
      .insert(courses)
      .values({ id: 'c-time', userId: owner.id, mainTopic: 'T', type: 'text' });
    const [topic] = await db
      .insert(topics)
      .values({ courseId: 'c-time', position: 0, title: 't' })
      .returning();
    const generatedAt = new Date(Date.UTC(2026, 10, 26, 12, 34, 56, 789));
    await db.insert(lessons).values([
      { courseId: 'c-time', topicId: topic!.id, position: 0, title: 'a', done: true, generatedAt },
      { courseId: 'c-time', topicId: topic!.id, position: 1, title: 'b' },
    ]);
    const rows = await db
      .select({ done: lessons.done, generatedAt: lessons.generatedAt })
      .from(lessons)
      .where(eq(lessons.courseId, 'c-time'))
      .orderBy(asc(lessons.position));
    expect(rows).toEqual([
      { done: true, generatedAt },
      { done: false, generatedAt: null },
    ]);
    // Compared in the database too: a Date parameter against a timestamp column.
    expect(await db.$count(lessons, eq(lessons.generatedAt, generatedAt))).toBe(1);
  });

  it('keeps the install id once, whoever asks first', async () => {
    const ids = await Promise.all(Array.from({ length: 5 }, () => readOrCreateInstallId(layer)));
    expect(new Set(ids).size).toBe(1);
    expect(ids[0]).toMatch(/^[0-9a-f]{8}$/);
    expect(await readOrCreateInstallId(layer)).toBe(ids[0]);
  });

  it('commits a transaction, and rolls back everything of one that throws', async () => {
    const { contacts } = layer.tables;
    const contact = (id: string) => ({
      id,
      firstName: 'A',
      lastName: 'B',
      email: 'a@b.c',
      phone: '1',
      message: 'm',
    });
    await layer.transaction(async (tx) => {
      await tx.insert(contacts).values(contact('tx-kept-1'));
      await tx.insert(contacts).values(contact('tx-kept-2'));
    });
    await expect(
      layer.transaction(async (tx) => {
        await tx.insert(contacts).values(contact('tx-lost'));
        // A model function called from the body: database() is the transaction.
        await layer.database().insert(contacts).values(contact('tx-lost-too'));
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    const ids = (await layer.database().select({ id: contacts.id }).from(contacts)).map(
      ({ id }) => id,
    );
    expect(ids).toEqual(expect.arrayContaining(['tx-kept-1', 'tx-kept-2']));
    expect(ids).not.toContain('tx-lost');
    expect(ids).not.toContain('tx-lost-too');
  });

  it('nests a transaction as a savepoint: the inner one may fail alone', async () => {
    const { contacts } = layer.tables;
    const contact = (id: string) => ({
      id,
      firstName: 'A',
      lastName: 'B',
      email: 'a@b.c',
      phone: '1',
      message: 'm',
    });
    await layer.transaction(async (tx) => {
      await tx.insert(contacts).values(contact('outer'));
      await layer
        .transaction(async (inner) => {
          await inner.insert(contacts).values(contact('inner'));
          throw new Error('inner fails');
        })
        .catch(() => undefined);
    });
    const ids = (await layer.database().select({ id: contacts.id }).from(contacts)).map(
      ({ id }) => id,
    );
    expect(ids).toContain('outer');
    expect(ids).not.toContain('inner');
  });

  it('runs read-modify-write transactions as if one after the other', async () => {
    const { settings } = layer.tables;
    await layer.database().insert(settings).values({ key: 'counter', value: '0' });
    const increment = () =>
      layer.transaction(async (tx) => {
        const row = await first(tx.select().from(settings).where(eq(settings.key, 'counter')));
        await pause(20); // another request's transaction gets every chance to run meanwhile
        await tx
          .update(settings)
          .set({ value: String(Number(row!.value) + 1) })
          .where(eq(settings.key, 'counter'));
      });
    await Promise.all(Array.from({ length: 4 }, increment));
    const row = await first(
      layer.database().select().from(settings).where(eq(settings.key, 'counter')),
    );
    expect(row!.value).toBe('4');
  });
});

describe('SQLite transactions and the other queries of the process', () => {
  let layer: DataLayer;
  beforeAll(async () => {
    layer = await openLayer('sqlite');
  });
  afterAll(() => layer.close());

  it("make a query from another async context wait, so a rollback loses nobody else's write", async () => {
    const { contacts } = layer.tables;
    const contact = (id: string) => ({
      id,
      firstName: 'A',
      lastName: 'B',
      email: 'a@b.c',
      phone: '1',
      message: 'm',
    });
    const inside = deferred();
    const finish = deferred();
    const events: string[] = [];
    const rolledBack = layer.transaction(async (tx) => {
      await tx.insert(contacts).values(contact('in-the-transaction'));
      inside.resolve();
      await finish.promise;
      events.push('transaction ends');
      throw new Error('roll back');
    });
    await inside.promise;
    // Another request writes while the transaction is open.
    const otherWrite = layer
      .database()
      .insert(contacts)
      .values(contact('another-request'))
      .returning()
      .then(() => events.push('other write done'));
    const otherRead = layer
      .database()
      .select()
      .from(contacts)
      .then((rows) => {
        events.push('other read done');
        return rows.map(({ id }) => id);
      });
    await pause(100);
    expect(events).toEqual([]);
    finish.resolve();
    await expect(rolledBack).rejects.toThrow('roll back');
    await otherWrite;
    // The read never saw the transaction's uncommitted row.
    expect(await otherRead).not.toContain('in-the-transaction');
    expect(events[0]).toBe('transaction ends');
    const ids = (await layer.database().select({ id: contacts.id }).from(contacts)).map(
      ({ id }) => id,
    );
    expect(ids).toEqual(['another-request']);
  });
});

describe('PostgreSQL transactions in conflict', () => {
  let layer: DataLayer;
  beforeAll(async () => {
    layer = await openLayer('postgres');
  });
  afterAll(() => layer.close());

  it('both end committed: the one PostgreSQL refuses is run again', async () => {
    const { settings } = layer.tables;
    await layer.database().insert(settings).values({ key: 'balance', value: '0' });
    let bodies = 0;
    let firstReads = 0;
    const bothRead = deferred();
    const add = () =>
      layer.transaction(async (tx) => {
        bodies += 1;
        const row = await first(tx.select().from(settings).where(eq(settings.key, 'balance')));
        // The first tries wait until both have read the same balance: they must conflict.
        if ((firstReads += 1) === 2) bothRead.resolve();
        if (firstReads <= 2) await bothRead.promise;
        await tx
          .update(settings)
          .set({ value: String(Number(row!.value) + 1) })
          .where(eq(settings.key, 'balance'));
      });
    await Promise.all([add(), add()]);
    const row = await first(
      layer.database().select().from(settings).where(eq(settings.key, 'balance')),
    );
    expect(row!.value).toBe('2');
    expect(bodies).toBeGreaterThanOrEqual(3);
  });
});

/**
 * PostgreSQL waits for a lock for ever unless told otherwise: the app's connections set a lock
 * and a statement timeout where nobody else did, a query finding no pool connection free in
 * time is busy too, and a health check never waits on the pool (ADR 0046).
 */
describe('PostgreSQL waits', () => {
  let created: TestDatabase;
  const layers: ReturnType<typeof postgresDataLayer>[] = [];
  beforeAll(async () => {
    created = await createTestDatabase('waits');
    databases.push(created);
    await migratePostgres(created.url);
  });
  afterAll(async () => {
    for (const layer of layers) await layer.close();
  });

  function layerOn(url: string, poolSize = 2) {
    const layer = postgresDataLayer({ url, poolSize });
    layers.push(layer);
    return layer;
  }
  const withOptions = (options: string) => {
    const url = new URL(created.url);
    url.searchParams.set('options', options);
    return url.toString();
  };
  async function timeouts(layer: ReturnType<typeof postgresDataLayer>) {
    const { rows } = await layer.pool.query<{ lock: string; statement: string }>(
      "SELECT current_setting('lock_timeout') AS lock, " +
        "current_setting('statement_timeout') AS statement",
    );
    return rows[0];
  }

  it('sets a lock and a statement timeout on its connections where nothing else sets one', async () => {
    expect(await timeouts(layerOn(created.url))).toEqual({ lock: '2s', statement: '15s' });
  });

  it("keeps the operator's: in DATABASE_URL's options, PGOPTIONS, or the database's settings", async () => {
    expect(await timeouts(layerOn(withOptions('-c lock_timeout=500')))).toEqual({
      lock: '500ms',
      statement: '15s',
    });
    // 0 is no limit, when the operator says so.
    expect(await timeouts(layerOn(withOptions('-c statement_timeout=0')))).toEqual({
      lock: '2s',
      statement: '0',
    });
    const saved = process.env.PGOPTIONS;
    process.env.PGOPTIONS = '-c lock_timeout=3s';
    try {
      expect(await timeouts(layerOn(created.url))).toEqual({ lock: '3s', statement: '15s' });
    } finally {
      if (saved === undefined) delete process.env.PGOPTIONS;
      else process.env.PGOPTIONS = saved;
    }
    const admin = layerOn(created.url, 1);
    await admin.pool.query(`ALTER DATABASE "${created.name}" SET statement_timeout = '7s'`);
    try {
      expect(await timeouts(layerOn(created.url))).toEqual({ lock: '2s', statement: '7s' });
    } finally {
      await admin.pool.query(`ALTER DATABASE "${created.name}" RESET statement_timeout`);
    }
  });

  it('answers busy past the lock timeout, while the lock is still held', async () => {
    const layer = layerOn(created.url);
    const { users } = layer.tables;
    const holder = postgresOtherWriter(created.url, 'hold', 8_000, 'users');
    let released = false;
    void holder.done.then(() => (released = true));
    await holder.ready;
    const failure = await layer
      .database()
      .select()
      .from(users)
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect({ busy: isDatabaseBusy(failure), whileHeld: !released }).toEqual({
      busy: true,
      whileHeld: true,
    });
    await holder.done;
    expect(await layer.database().select().from(users)).toEqual(expect.any(Array));
  });

  it('answers busy when no pool connection comes free in time; a health check does not wait for one', async () => {
    const layer = layerOn(created.url, 1);
    let slept = false;
    const sleeping = layer.pool.query('SELECT pg_sleep(6)').then(() => (slept = true));
    await pause(200); // the pool's one connection is taken
    const [queried, health] = await Promise.all([
      layer
        .database()
        .select()
        .from(layer.tables.settings)
        .then(
          () => ({ busy: false, whileTaken: !slept }),
          (error: unknown) => ({ busy: isDatabaseBusy(error), whileTaken: !slept }),
        ),
      layer.checkHealth(2_000).then(() => ({ answered: true, whileTaken: !slept })),
    ]);
    expect({ queried, health }).toEqual({
      queried: { busy: true, whileTaken: true },
      health: { answered: true, whileTaken: true },
    });
    await sleeping;
  });

  it('says the database is down within the health check time when it does not answer', async () => {
    // A port where nothing listens (bound, then closed).
    const server = net.createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const nowhere = new URL(created.url);
    nowhere.port = String(port);
    await expect(layerOn(nowhere.toString()).checkHealth(2_000)).rejects.toThrow();
  });
});

describe('the process database', () => {
  const saved = { ...process.env };
  afterAll(async () => {
    await closeDatabase();
    process.env = saved;
    resetEnvForTests();
  });

  it('is the SQLite file in DATA_DIR unless DATABASE_URL is set, then PostgreSQL', async () => {
    delete process.env.DATABASE_URL;
    resetEnvForTests();
    expect(databaseDialect()).toBe('sqlite');
    expect(is(tables.users, SQLiteTable)).toBe(true);
    expect(describeDatabase(env())).toMatch(/^SQLite file .*coursegen\.sqlite$/);
    expect(await database().$count(tables.policies)).toBeGreaterThanOrEqual(0);

    const created = await createTestDatabase('process');
    databases.push(created);
    await migratePostgres(created.url);
    const withPassword = new URL(created.url);
    withPassword.password = 'secret-password';
    process.env.DATABASE_URL = created.url;
    process.env.SESSION_SECRET = 'a-session-secret-of-at-least-32-characters';
    process.env.DATABASE_POOL_SIZE = '3';
    resetEnvForTests();
    // The process keeps the database it opened until it is closed: the next use opens anew.
    expect(databaseDialect()).toBe('sqlite');
    await closeDatabase();
    expect(databaseDialect()).toBe('postgres');
    expect(is(tables.users, PgTable)).toBe(true);
    await database().insert(tables.contacts).values({
      id: 'on-postgres',
      firstName: 'A',
      lastName: 'B',
      email: 'a@b.c',
      phone: '1',
      message: 'm',
    });
    expect(await database().$count(tables.contacts)).toBe(1);
    expect(describeDatabase(env())).toBe(
      `PostgreSQL at ${created.url} (up to 3 connections per process)`,
    );
    process.env.DATABASE_URL = withPassword.toString();
    resetEnvForTests();
    expect(describeDatabase(env())).not.toContain('secret-password');
    expect(describeDatabase(env())).toContain('***');
  });
});

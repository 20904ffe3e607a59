import { and, asc, count, desc, eq, gte, inArray, ne, or, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import { database, first, tables, type Tables } from '~/utils/database.server';

/**
 * What the admin panel reads: counts from aggregate queries and every table
 * paged, searched and sorted in SQL (never every row in the browser), over
 * indexed columns.
 */
export interface PageRequest {
  page: number;
  pageSize: number;
  q: string;
  sort: string;
  dir: 'asc' | 'desc';
}

export interface Page<T> {
  rows: T[];
  total: number;
  page: number;
  pageSize: number;
}

async function paged<T>(
  request: PageRequest,
  columns: Record<string, SQLiteColumn | SQL>,
  fallback: string,
  run: (order: SQL, limit: number, offset: number) => Promise<T[]>,
  total: () => Promise<number>,
): Promise<Page<T>> {
  const column = columns[request.sort] ?? columns[fallback]!;
  const order = request.dir === 'asc' ? asc(column) : desc(column);
  const rows = await run(order, request.pageSize, (request.page - 1) * request.pageSize);
  return { rows, total: await total(), page: request.page, pageSize: request.pageSize };
}

const contains = (q: string) => `%${q.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
// lower() on both sides: `like` ignores ASCII case on SQLite but not on PostgreSQL.
const search = (q: string, ...columns: (SQLiteColumn | SQL)[]) =>
  q
    ? or(...columns.map((column) => sql`lower(${column}) like lower(${contains(q)}) escape '\\'`))
    : undefined;

const userColumns = ({ users }: Pick<Tables, 'users'>) => ({
  email: users.email,
  name: users.name,
  type: users.plan,
  created: users.createdAt,
});

export async function listUsers(request: PageRequest, options: { paidOnly?: boolean } = {}) {
  const { users } = tables;
  const where = and(
    options.paidOnly ? inArray(users.plan, ['monthly', 'yearly']) : undefined,
    search(request.q, users.email, users.name),
  );
  const select = {
    id: users.id,
    email: users.email,
    name: users.name,
    type: users.plan,
    role: users.role,
  };
  return paged(
    request,
    userColumns(tables),
    'created',
    (order, limit, offset) =>
      database()
        .select(select)
        .from(users)
        .where(where)
        .orderBy(order, desc(users.id))
        .limit(limit)
        .offset(offset),
    async () => (await first(database().select({ n: count() }).from(users).where(where)))?.n ?? 0,
  );
}

export async function listCourses(request: PageRequest) {
  const { courseCompletions, courses, users } = tables;
  const where = search(request.q, courses.mainTopic);
  return paged(
    request,
    { title: courses.mainTopic, type: courses.type, created: courses.createdAt },
    'created',
    async (order, limit, offset) => {
      // The page's ids first, from the index alone: a late page never joins the rows it skips.
      const ids = (
        await database()
          .select({ id: courses.id })
          .from(courses)
          .where(where)
          .orderBy(order, desc(courses.id))
          .limit(limit)
          .offset(offset)
      ).map((row) => row.id);
      if (ids.length === 0) return [];
      const rows = await database()
        .select({
          id: courses.id,
          title: courses.mainTopic,
          type: courses.type,
          userId: courses.userId,
          owner: users.email,
          createdAt: courses.createdAt,
          photoUrl: courses.photoUrl,
          completedAt: courseCompletions.completedAt,
          language: courses.language,
        })
        .from(courses)
        .innerJoin(users, eq(users.id, courses.userId))
        .leftJoin(courseCompletions, eq(courseCompletions.courseId, courses.id))
        .where(inArray(courses.id, ids));
      const position = new Map(ids.map((id, index) => [id, index]));
      return rows.sort((a, b) => position.get(a.id)! - position.get(b.id)!);
    },
    async () => (await first(database().select({ n: count() }).from(courses).where(where)))?.n ?? 0,
  );
}

export async function listContacts(request: PageRequest) {
  const { contacts } = tables;
  const where = search(request.q, contacts.email, contacts.firstName, contacts.lastName);
  return paged(
    request,
    { created: contacts.createdAt, email: contacts.email },
    'created',
    (order, limit, offset) =>
      database()
        .select()
        .from(contacts)
        .where(where)
        .orderBy(order, desc(contacts.id))
        .limit(limit)
        .offset(offset),
    async () =>
      (await first(database().select({ n: count() }).from(contacts).where(where)))?.n ?? 0,
  );
}

/** Admins and the main admin (few; not paged). */
export async function listAdmins() {
  const { users } = tables;
  return database()
    .select({ id: users.id, email: users.email, name: users.name, role: users.role })
    .from(users)
    .where(inArray(users.role, ['admin', 'main_admin']))
    .orderBy(desc(sql`${users.role} = 'main_admin'`), asc(users.email));
}

export async function setRole(userId: string, role: 'admin' | 'member'): Promise<boolean> {
  const { users } = tables;
  const changed = await database()
    .update(users)
    .set({ role, updatedAt: new Date() })
    .where(and(eq(users.id, userId), ne(users.role, 'main_admin')))
    .returning({ id: users.id });
  return changed.length > 0;
}

export async function recordAudit(
  actor: { id: string; email: string },
  action: string,
  detail: string,
) {
  const { adminAudit } = tables;
  await database()
    .insert(adminAudit)
    .values({ actorId: actor.id, actorEmail: actor.email, action, detail });
}

/** The latest entries of some actions only (a setting's changes, for its page). */
export async function listAuditOf(actions: string[], limit = 10) {
  const { adminAudit } = tables;
  return database()
    .select()
    .from(adminAudit)
    .where(inArray(adminAudit.action, actions))
    .orderBy(desc(adminAudit.id))
    .limit(limit);
}

export async function getAuditEntry(id: number) {
  const { adminAudit } = tables;
  return first(database().select().from(adminAudit).where(eq(adminAudit.id, id)));
}

export async function listAudit(limit = 20) {
  const { adminAudit } = tables;
  return database().select().from(adminAudit).orderBy(desc(adminAudit.id)).limit(limit);
}

/**
 * The monthly value of the subscriptions summed: a numeric on PostgreSQL, which node-postgres
 * returns as a string, hence `mapWith(Number)`.
 */
const monthlyValue = ({ subscriptions }: Pick<Tables, 'subscriptions'>) =>
  sql<number>`coalesce(sum(case when ${subscriptions.plan} = 'yearly' then ${subscriptions.amountCents} / 12.0 else ${subscriptions.amountCents} end), 0)`.mapWith(
    Number,
  );

/** Money in one currency: what the dashboard shows per currency, never summed across them. */
export interface Revenue {
  currency: string;
  /** Active subscriptions' monthly value (a yearly price counts a twelfth). */
  recurringCents: number;
  /** Every payment recorded: members' receipts and deleted accounts' kept ones (ADR 0054). */
  totalCents: number;
}

/**
 * Revenue per currency (ADR 0063): a subscription paid in INR and one in USD are two figures, as
 * no rate would make their sum right. Receipts of deleted accounts count, as they were paid.
 */
async function revenueByCurrency(): Promise<Revenue[]> {
  const { keptReceipts, receipts, subscriptions } = tables;
  const [recurring, paid, kept] = await Promise.all([
    database()
      .select({ currency: subscriptions.currency, cents: monthlyValue(tables) })
      .from(subscriptions)
      .where(eq(subscriptions.status, 'active'))
      .groupBy(subscriptions.currency),
    database()
      .select({
        currency: receipts.currency,
        cents: sql<number>`coalesce(sum(${receipts.amountCents}), 0)`.mapWith(Number),
      })
      .from(receipts)
      .groupBy(receipts.currency),
    database()
      .select({
        currency: keptReceipts.currency,
        cents: sql<number>`coalesce(sum(${keptReceipts.amountCents}), 0)`.mapWith(Number),
      })
      .from(keptReceipts)
      .groupBy(keptReceipts.currency),
  ]);
  const byCurrency = new Map<string, Revenue>();
  const of = (currency: string) => {
    const found = byCurrency.get(currency) ?? { currency, recurringCents: 0, totalCents: 0 };
    byCurrency.set(currency, found);
    return found;
  };
  for (const row of recurring) of(row.currency).recurringCents += Math.round(row.cents);
  for (const row of [...paid, ...kept]) of(row.currency).totalCents += row.cents;
  return [...byCurrency.values()].sort((a, b) => a.currency.localeCompare(b.currency));
}

/**
 * The dashboard's figures, each from one aggregate query. Counts and sums go through
 * `count()` / `mapWith(Number)` (PostgreSQL returns bigint and numeric as strings), and a count
 * of the rows matching a condition is `count(*) filter (where ...)`, which both databases have.
 */
export async function dashboardFigures(now = new Date()) {
  const { courses, lessons, users } = tables;
  const monthAgo = new Date(now.getTime() - 30 * 24 * 3600 * 1000);
  const [byPlan, byType, revenue, newMembers, newCourses, lessonStates] = await Promise.all([
    first(
      database()
        .select({
          free: sql<number>`count(*) filter (where ${users.plan} = 'free')`.mapWith(Number),
          all: count(),
        })
        .from(users),
    ),
    first(
      database()
        .select({
          video: sql<number>`count(*) filter (where ${courses.type} = 'video')`.mapWith(Number),
          all: count(),
        })
        .from(courses),
    ),
    revenueByCurrency(),
    first(database().select({ n: count() }).from(users).where(gte(users.createdAt, monthAgo))),
    first(database().select({ n: count() }).from(courses).where(gte(courses.createdAt, monthAgo))),
    first(
      database()
        .select({
          generating: count(),
          failing: sql<number>`count(*) filter (where ${lessons.attempts} > 1)`.mapWith(Number),
        })
        .from(lessons)
        .where(ne(lessons.state, 'done')),
    ),
  ]);
  return {
    users: byPlan!.all,
    paid: byPlan!.all - byPlan!.free,
    free: byPlan!.free,
    courses: byType!.all,
    textType: byType!.all - byType!.video,
    videoType: byType!.video,
    revenue,
    newMembers: newMembers!.n,
    newCourses: newCourses!.n,
    lessonsGenerating: lessonStates!.generating,
    lessonsRetrying: lessonStates!.failing,
  };
}

import { and, asc, count, desc, eq, gte, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import {
  adminAudit,
  courseCompletions,
  contacts,
  courses,
  lessons,
  receipts,
  subscriptions,
  users,
} from '../../db/schema';
import { db } from '~/utils/db.server';

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

function paged<T>(
  request: PageRequest,
  columns: Record<string, SQLiteColumn | SQL>,
  fallback: string,
  run: (order: SQL, limit: number, offset: number) => T[],
  total: () => number,
): Page<T> {
  const column = columns[request.sort] ?? columns[fallback]!;
  const order = request.dir === 'asc' ? asc(column) : desc(column);
  const rows = run(order, request.pageSize, (request.page - 1) * request.pageSize);
  return { rows, total: total(), page: request.page, pageSize: request.pageSize };
}

const contains = (q: string) => `%${q.replace(/[%_\\]/g, (c) => `\\${c}`)}%`;
const search = (q: string, ...columns: (SQLiteColumn | SQL)[]) =>
  q ? or(...columns.map((column) => sql`${column} like ${contains(q)} escape '\\'`)) : undefined;

const userColumns = {
  email: users.email,
  name: users.name,
  type: users.plan,
  created: users.createdAt,
};

export function listUsers(request: PageRequest, options: { paidOnly?: boolean } = {}) {
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
    userColumns,
    'created',
    (order, limit, offset) =>
      db()
        .select(select)
        .from(users)
        .where(where)
        .orderBy(order, desc(users.id))
        .limit(limit)
        .offset(offset)
        .all(),
    () => db().select({ n: count() }).from(users).where(where).get()?.n ?? 0,
  );
}

export function listCourses(request: PageRequest) {
  const where = search(request.q, courses.mainTopic);
  return paged(
    request,
    { title: courses.mainTopic, type: courses.type, created: courses.createdAt },
    'created',
    (order, limit, offset) => {
      // The page's ids first, from the index alone: a late page never joins the rows it skips.
      const ids = db()
        .select({ id: courses.id })
        .from(courses)
        .where(where)
        .orderBy(order, desc(courses.id))
        .limit(limit)
        .offset(offset)
        .all()
        .map((row) => row.id);
      if (ids.length === 0) return [];
      const rows = db()
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
        .where(inArray(courses.id, ids))
        .all();
      const position = new Map(ids.map((id, index) => [id, index]));
      return rows.sort((a, b) => position.get(a.id)! - position.get(b.id)!);
    },
    () => db().select({ n: count() }).from(courses).where(where).get()?.n ?? 0,
  );
}

export function listContacts(request: PageRequest) {
  const where = search(request.q, contacts.email, contacts.firstName, contacts.lastName);
  return paged(
    request,
    { created: contacts.createdAt, email: contacts.email },
    'created',
    (order, limit, offset) =>
      db()
        .select()
        .from(contacts)
        .where(where)
        .orderBy(order, desc(contacts.id))
        .limit(limit)
        .offset(offset)
        .all(),
    () => db().select({ n: count() }).from(contacts).where(where).get()?.n ?? 0,
  );
}

/** Admins and the main admin (few; not paged). */
export function listAdmins() {
  return db()
    .select({ id: users.id, email: users.email, name: users.name, role: users.role })
    .from(users)
    .where(inArray(users.role, ['admin', 'main_admin']))
    .orderBy(desc(sql`${users.role} = 'main_admin'`), asc(users.email))
    .all();
}

export function setRole(userId: string, role: 'admin' | 'member') {
  return (
    db()
      .update(users)
      .set({ role, updatedAt: new Date() })
      .where(and(eq(users.id, userId), sql`${users.role} != 'main_admin'`))
      .run().changes > 0
  );
}

export function recordAudit(actor: { id: string; email: string }, action: string, detail: string) {
  db()
    .insert(adminAudit)
    .values({ actorId: actor.id, actorEmail: actor.email, action, detail })
    .run();
}

export function listAudit(limit = 20) {
  return db().select().from(adminAudit).orderBy(desc(adminAudit.id)).limit(limit).all();
}

const MONTHLY_VALUE = sql<number>`coalesce(sum(case when ${subscriptions.plan} = 'yearly' then ${subscriptions.amountCents} / 12.0 else ${subscriptions.amountCents} end), 0)`;

/** The dashboard's figures, each from one aggregate query. */
export function dashboardFigures(now = new Date()) {
  const monthAgo = new Date(now.getTime() - 30 * 24 * 3600 * 1000);
  const byPlan = db()
    .select({ free: sql<number>`coalesce(sum(${users.plan} = 'free'), 0)`, all: count() })
    .from(users)
    .get()!;
  const byType = db()
    .select({ video: sql<number>`coalesce(sum(${courses.type} = 'video'), 0)`, all: count() })
    .from(courses)
    .get()!;
  const recurring = db()
    .select({ cents: MONTHLY_VALUE })
    .from(subscriptions)
    .where(eq(subscriptions.status, 'active'))
    .get()!;
  const total = db()
    .select({ cents: sql<number>`coalesce(sum(${receipts.amountCents}), 0)` })
    .from(receipts)
    .get()!;
  const newMembers = db()
    .select({ n: count() })
    .from(users)
    .where(gte(users.createdAt, monthAgo))
    .get()!.n;
  const newCourses = db()
    .select({ n: count() })
    .from(courses)
    .where(gte(courses.createdAt, monthAgo))
    .get()!.n;
  const lessonStates = db()
    .select({
      generating: sql<number>`coalesce(sum(${lessons.state} != 'done'), 0)`,
      failing: sql<number>`coalesce(sum(${lessons.state} != 'done' and ${lessons.attempts} > 1), 0)`,
    })
    .from(lessons)
    .where(sql`${lessons.state} != 'done'`)
    .get()!;
  return {
    users: byPlan.all,
    paid: byPlan.all - byPlan.free,
    free: byPlan.free,
    courses: byType.all,
    textType: byType.all - byType.video,
    videoType: byType.video,
    recurringCents: Math.round(recurring.cents),
    totalCents: total.cents,
    newMembers,
    newCourses,
    lessonsGenerating: lessonStates.generating,
    lessonsRetrying: lessonStates.failing,
  };
}

import { count, eq, sql } from 'drizzle-orm';
import { courses, subscriptions, users } from '../../db/schema';
import { db } from '~/utils/db.server';

export interface DashboardStats {
  users: number;
  paid: number;
  free: number;
  courses: number;
  textType: number;
  videoType: number;
  /** Dollars per billing period of the active subscriptions. */
  recurringRevenue: number;
}

/** The admin dashboard's counts, from aggregate queries only. */
export function dashboardStats(): DashboardStats {
  const byPlan = db()
    .select({ free: sql<number>`sum(${users.plan} = 'free')`, all: count() })
    .from(users)
    .get();
  const byType = db()
    .select({ video: sql<number>`sum(${courses.type} = 'video')`, all: count() })
    .from(courses)
    .get();
  const recurring = db()
    .select({ cents: sql<number>`coalesce(sum(${subscriptions.amountCents}), 0)` })
    .from(subscriptions)
    .where(eq(subscriptions.status, 'active'))
    .get();
  const allUsers = byPlan?.all ?? 0;
  const free = byPlan?.free ?? 0;
  const allCourses = byType?.all ?? 0;
  const video = byType?.video ?? 0;
  return {
    users: allUsers,
    paid: allUsers - free,
    free,
    courses: allCourses,
    textType: allCourses - video,
    videoType: video,
    recurringRevenue: (recurring?.cents ?? 0) / 100,
  };
}

import { PRIORITY_LIMIT } from 'bullmq';

/**
 * The order generation work starts in (ADR 38). BullMQ starts a queue's lowest priority number
 * first (jobs without one first of all), and jobs of equal priority in the order they came.
 *
 * - **Members take turns.** A job's turn is how much of the same member's work of its kind is
 *   owed ahead of it: a member's fresh course's first quiz has turn 0 if they owe nothing else,
 *   and goes before the 2,000 quizzes another member owes from turn 1 on. Work of one member stays
 *   in its own order.
 * - **Fresh before swept.** Work the sweep gives a job again (a restored backup, a Redis that lost
 *   its jobs, an outage) ranks behind everything enqueued when it was asked for, member by member
 *   in turns too. A member waiting on a page still goes first (`WAITED_FOR_PRIORITY`).
 */
const FRESH_FROM = 10;
const SWEPT_FROM = 1_000_000;

/** A fresh job's priority, at its turn among its member's owed work. */
export function freshPriority(turn: number) {
  return FRESH_FROM + Math.min(Math.max(turn, 0), SWEPT_FROM - FRESH_FROM - 1);
}

/** A swept job's priority, at its turn among its member's swept work. */
export function sweptPriority(turn: number) {
  return SWEPT_FROM + Math.min(Math.max(turn, 0), PRIORITY_LIMIT - SWEPT_FROM);
}

/** Numbers each item by its place among the items of the same member, in list order. */
export function turnsPerMember<T extends { userId: string }>(items: T[]): (T & { turn: number })[] {
  const next = new Map<string, number>();
  return items.map((item) => {
    const turn = next.get(item.userId) ?? 0;
    next.set(item.userId, turn + 1);
    return { ...item, turn };
  });
}

import { describe, expect, it } from 'vitest';
import { grade, newSchedule, previewDays } from './flashcard-scheduling.server';

const DAY = 24 * 3600 * 1000;
const now = new Date('2026-11-26T09:00:00Z');

describe('FSRS scheduling', () => {
  it('puts a new card off by whole days, longer for each better grade', () => {
    const card = newSchedule(now);
    expect(card.due).toEqual(now);
    expect(card.state).toBe(0);
    const days = [1, 2, 3, 4].map(
      (rating) => grade(7, card, rating as 1 | 2 | 3 | 4, now).next.scheduledDays,
    );
    // Again comes back tomorrow; no grade keeps the card for later today.
    expect(days[0]).toBe(1);
    for (const [i, d] of days.entries()) if (i > 0) expect(d).toBeGreaterThan(days[i - 1]!);
    const again = grade(7, card, 1, now).next;
    expect(again.due.getTime() - now.getTime()).toBe(DAY);
    expect(again.reps).toBe(1);
    expect(again.state).toBe(2);
  });

  it('shows on each button the interval its grade gives a moment later, fuzz included', () => {
    for (let cardId = 1; cardId <= 20; cardId += 1) {
      const card = grade(cardId, newSchedule(now), 3, now).next;
      // The page is shown, then the member answers a few minutes later.
      const shown = card.due;
      const answered = new Date(shown.getTime() + 5 * 60_000 + cardId * 1_000);
      const preview = previewDays(cardId, card, shown);
      for (const rating of [1, 2, 3, 4] as const)
        expect(grade(cardId, card, rating, answered).next.scheduledDays).toBe(preview[rating]);
    }
  });

  it('grows the interval of a card remembered again, and shrinks it after a lapse', () => {
    const first = grade(3, newSchedule(now), 3, now);
    const second = grade(3, first.next, 3, first.next.due);
    expect(second.next.scheduledDays).toBeGreaterThan(first.next.scheduledDays);
    expect(second.log).toMatchObject({ state: 2, elapsedDays: first.next.scheduledDays });
    const lapse = grade(3, second.next, 1, second.next.due);
    expect(lapse.next.lapses).toBe(1);
    expect(lapse.next.scheduledDays).toBeLessThan(second.next.scheduledDays);
  });
});

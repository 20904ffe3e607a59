import { PRIORITY_LIMIT } from 'bullmq';
import { describe, expect, it } from 'vitest';
import { WAITED_FOR_PRIORITY } from './lesson.server';
import { freshPriority, sweptPriority, turnsPerMember } from './priorities.server';

describe('the order generation work starts in', () => {
  it('puts a lesson a learner waits for first, fresh work next and swept work last', () => {
    expect(WAITED_FOR_PRIORITY).toBeLessThan(freshPriority(0));
    expect(freshPriority(0)).toBeLessThan(freshPriority(1));
    expect(freshPriority(10_000_000)).toBeLessThan(sweptPriority(0));
    expect(sweptPriority(0)).toBeLessThan(sweptPriority(1));
    expect(sweptPriority(10_000_000)).toBe(PRIORITY_LIMIT);
  });

  it("numbers each member's work in turns, keeping each member's order", () => {
    const owed = [
      { id: 'a1', userId: 'a' },
      { id: 'a2', userId: 'a' },
      { id: 'a3', userId: 'a' },
      { id: 'b1', userId: 'b' },
      { id: 'a4', userId: 'a' },
      { id: 'c1', userId: 'c' },
    ];
    const byPriority = turnsPerMember(owed)
      .map((item, index) => ({ ...item, priority: sweptPriority(item.turn), index }))
      .sort((x, y) => x.priority - y.priority || x.index - y.index)
      .map((item) => item.id);
    expect(byPriority).toEqual(['a1', 'b1', 'c1', 'a2', 'a3', 'a4']);
  });
});

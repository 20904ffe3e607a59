import { describe, expect, it } from 'vitest';
import { memberSlots } from './member-slots';

describe('memberSlots', () => {
  it('gives each member at most `max` at once, and a slot back when released (once)', () => {
    const slots = memberSlots(2);
    const first = slots.take('a')!;
    const second = slots.take('a')!;
    expect(slots.take('a')).toBeNull();
    expect(slots.take('b')).not.toBeNull();
    first();
    first();
    expect(slots.heldBy('a')).toBe(1);
    const third = slots.take('a');
    expect(third).not.toBeNull();
    second();
    third!();
    expect(slots.heldBy('a')).toBe(0);
  });
});

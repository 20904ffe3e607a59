/**
 * At most `max` things at once per member in this process (downloads, streams): `take` gives a
 * release function, or null when the member already holds `max`. Counts are per web process,
 * like the other per-member caps (docs/architecture.md, Processes).
 */
export function memberSlots(max: number) {
  const held = new Map<string, number>();
  return {
    take(memberId: string): (() => void) | null {
      const count = held.get(memberId) ?? 0;
      if (count >= max) return null;
      held.set(memberId, count + 1);
      let released = false;
      return () => {
        if (released) return;
        released = true;
        const left = (held.get(memberId) ?? 1) - 1;
        if (left > 0) held.set(memberId, left);
        else held.delete(memberId);
      };
    },
    heldBy(memberId: string): number {
      return held.get(memberId) ?? 0;
    },
  };
}

/**
 * A queue shared fairly between owners (start-time fair queuing, unit cost per item): each item
 * is tagged with a virtual start, the later of "now" (the start of the item last taken) and the
 * end of its owner's previous item, and `shift` takes the smallest tag (the earliest pushed among
 * equals). So an owner who has been waiting for nothing goes ahead of another owner's second,
 * third, ... item, and an owner who had the queue to itself for a while cannot be starved by a
 * newcomer catching up. Issue 31: one member's six large PDF exports held up another's small one.
 */
export class FairQueue<T> {
  private items: { owner: string; start: number; order: number; item: T }[] = [];
  private readonly lastEnd = new Map<string, number>();
  private now = 0;
  private pushed = 0;

  get size(): number {
    return this.items.length;
  }

  push(owner: string, item: T) {
    const start = Math.max(this.now, this.lastEnd.get(owner) ?? 0);
    this.lastEnd.set(owner, start + 1);
    this.items.push({ owner, start, order: this.pushed++, item });
  }

  shift(): T | undefined {
    if (this.items.length === 0) return undefined;
    let next = 0;
    for (let i = 1; i < this.items.length; i += 1) {
      const candidate = this.items[i]!;
      const best = this.items[next]!;
      if (
        candidate.start < best.start ||
        (candidate.start === best.start && candidate.order < best.order)
      )
        next = i;
    }
    const [taken] = this.items.splice(next, 1);
    this.now = taken!.start;
    // Owners with nothing queued and nothing ahead of "now" need no memory.
    for (const [owner, end] of this.lastEnd) if (end <= this.now) this.lastEnd.delete(owner);
    return taken!.item;
  }

  /** Empties the queue, giving back every item in the order they were pushed. */
  drain(): T[] {
    const all = this.items.sort((a, b) => a.order - b.order).map((entry) => entry.item);
    this.items = [];
    return all;
  }
}

import { describe, expect, it } from 'vitest';
import { FairQueue } from './fair-queue';

function takeAll<T>(queue: FairQueue<T>): T[] {
  const order: T[] = [];
  for (let item = queue.shift(); item !== undefined; item = queue.shift()) order.push(item);
  return order;
}

describe('FairQueue', () => {
  it("serves a newcomer before another owner's second item, not behind all of them", () => {
    const queue = new FairQueue<string>();
    queue.push('heavy', 'h1');
    expect(queue.shift()).toBe('h1'); // being drawn
    for (let i = 2; i <= 6; i += 1) queue.push('heavy', `h${i}`);
    queue.push('light', 'l1');
    expect(queue.size).toBe(6);
    expect(takeAll(queue)).toEqual(['l1', 'h2', 'h3', 'h4', 'h5', 'h6']);
  });

  it('takes turns between owners, earliest first among equals', () => {
    const queue = new FairQueue<string>();
    for (const [owner, item] of [
      ['a', 'a1'],
      ['a', 'a2'],
      ['a', 'a3'],
      ['b', 'b1'],
      ['c', 'c1'],
      ['b', 'b2'],
    ])
      queue.push(owner!, item!);
    expect(takeAll(queue)).toEqual(['a1', 'b1', 'c1', 'a2', 'b2', 'a3']);
  });

  it('does not let a newcomer starve an owner who had the queue to itself', () => {
    const queue = new FairQueue<string>();
    for (let i = 1; i <= 50; i += 1) {
      queue.push('old', `o${i}`);
      queue.shift();
    }
    queue.push('old', 'o51');
    queue.push('old', 'o52');
    queue.push('new', 'n1');
    queue.push('new', 'n2');
    queue.push('new', 'n3');
    // Turn about from now on: the newcomer gets no catch-up for the 50 it did not ask for.
    expect(takeAll(queue)).toEqual(['n1', 'o51', 'n2', 'o52', 'n3']);
  });

  it('drains everything in the order pushed', () => {
    const queue = new FairQueue<number>();
    queue.push('a', 1);
    queue.push('a', 2);
    queue.push('b', 3);
    expect(queue.drain()).toEqual([1, 2, 3]);
    expect(queue.shift()).toBeUndefined();
  });
});

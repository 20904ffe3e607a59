import { describe, expect, it } from 'vitest';
import { publishChange } from '~/utils/changes.server';
import { MAX_WAITS_PER_MEMBER, readWhenChanged, SAFETY_CHECK_MS } from '~/utils/long-poll.server';
import { waitForRedis } from '~/utils/redis.server';

/**
 * A waiting status request reads the state when the worker says it changed (Redis pub/sub),
 * not in a loop; a member holds only a few waits at once.
 */
const waitingRequest = (known: string, controller = new AbortController()) =>
  new Request(`http://localhost/status/x?known=${known}&wait=20000`, { signal: controller.signal });

describe('long polling on change notifications', () => {
  it('answers as soon as the change is published, reading the state only a few times', async () => {
    await waitForRedis(5_000);
    let version = 'v1';
    let reads = 0;
    const read = () => {
      reads += 1;
      return { version };
    };
    const started = Date.now();
    const answer = readWhenChanged(waitingRequest('v1'), read, {
      key: 'course:c1',
      memberId: 'm1',
    });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    // Held 1.5 s and read once or twice, where a 50 ms loop read the database 30 times.
    expect(reads).toBeLessThanOrEqual(2);
    version = 'v2';
    publishChange('course:c1');
    await expect(answer).resolves.toEqual({ version: 'v2' });
    expect(Date.now() - started).toBeLessThan(1_500 + SAFETY_CHECK_MS);
    expect(reads).toBeLessThanOrEqual(3);
  });

  it('holds at most a few waits per member and answers the others at once', async () => {
    const controllers = Array.from(
      { length: MAX_WAITS_PER_MEMBER + 2 },
      () => new AbortController(),
    );
    const settled: boolean[] = controllers.map(() => false);
    const answers = controllers.map((controller, index) =>
      readWhenChanged(waitingRequest('same', controller), () => ({ version: 'same' }), {
        key: 'course:c2',
        memberId: 'm2',
      }).then(() => (settled[index] = true)),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(settled.filter(Boolean)).toHaveLength(2);
    for (const controller of controllers) controller.abort();
    await Promise.all(answers);
    // Another member is not held back by the first one's waits.
    const other = readWhenChanged(waitingRequest('same'), () => ({ version: 'new' }), {
      key: 'course:c2',
      memberId: 'm3',
    });
    await expect(other).resolves.toEqual({ version: 'new' });
  });
});

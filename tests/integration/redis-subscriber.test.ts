import { describe, expect, it } from 'vitest';
import { nextChange, publishChange } from '~/utils/changes.server';
import { followDraft, startDraft, type DraftEvent } from '~/utils/drafts.server';
import { subscriberRedis } from '~/utils/redis.server';

/**
 * A web process's first stream or status wait opens its subscriber connection, and the next one
 * can ask for its channel while that connection is still in ioredis's handshake (its status is
 * `connect`). A SUBSCRIBE written then made the handshake's ready check fail: the connection
 * started over, the subscription was gone, and the page's lesson stopped growing until it was
 * stored (ADR 44; seen in CI with the machine busy, and every time when asked for at `connect`).
 */
describe('the subscriber connection', () => {
  it('hears drafts and changes asked for while its connection is being made', async () => {
    const connection = subscriberRedis();
    const problems: string[] = [];
    connection.on('error', (error: Error) => problems.push(error.message));
    await new Promise((resolve) => connection.once('connect', resolve));
    expect(connection.status).toBe('connect');

    const controller = new AbortController();
    const seen: DraftEvent[] = [];
    const changeHeard = nextChange('course:handshake', 20_000, controller.signal).then(() =>
      Date.now(),
    );
    await followDraft('lesson:616161', controller.signal, (event) => seen.push(event));

    const writer = startDraft('lesson:616161');
    writer.append('Every ');
    writer.append('piece');
    await writer.finish();
    const published = Date.now();
    publishChange('course:handshake');

    for (const deadline = Date.now() + 10_000; seen.at(-1)?.type !== 'done';) {
      if (Date.now() > deadline) break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    const text = seen.reduce(
      (shown, event) =>
        event.type === 'reset' ? event.text : event.type === 'append' ? shown + event.text : shown,
      '',
    );
    expect({ text, last: seen.at(-1)?.type, problems }).toEqual({
      text: 'Every piece',
      last: 'done',
      problems: [],
    });
    // Woken by the change itself, not by its 20 s safety timeout.
    expect((await changeHeard) - published).toBeLessThan(5_000);
    controller.abort();
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  NoteSaver,
  noteStorageKey,
  retryDelayMs,
  type NoteState,
  type SendOutcome,
} from './note-saver';

class MemoryStorage {
  items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
}

/** A server that answers each save with the next queued outcome (ok when none is queued). */
function setup(serverBody = '', outcomes: (SendOutcome | 'network')[] = []) {
  const storage = new MemoryStorage();
  const sent: { body: string; keepalive: boolean }[] = [];
  const states: NoteState['kind'][] = [];
  let last: NoteState = { kind: 'saved' };
  const saver = new NoteSaver(
    {
      lessonId: 7,
      storage,
      debounceMs: 800,
      onState: (state) => {
        last = state;
        states.push(state.kind);
      },
      send: async (body, { keepalive }) => {
        sent.push({ body, keepalive });
        const next = outcomes.shift() ?? { ok: true };
        if (next === 'network') throw new TypeError('Failed to fetch');
        return next;
      },
    },
    serverBody,
  );
  return { saver, storage, sent, states, state: () => last };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('NoteSaver', () => {
  it('saves once, 800 ms after the last change, then says Saved and forgets the local copy', async () => {
    const { saver, sent, storage, state } = setup();
    saver.start();
    saver.change('H');
    await vi.advanceTimersByTimeAsync(500);
    saver.change('Hi');
    expect(state().kind).toBe('saving');
    expect(storage.getItem(noteStorageKey(7))).toBe('Hi');
    await vi.advanceTimersByTimeAsync(799);
    expect(sent).toEqual([]);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toEqual([{ body: 'Hi', keepalive: false }]);
    expect(state().kind).toBe('saved');
    expect(storage.getItem(noteStorageKey(7))).toBeNull();
  });

  it('shows Not saved while the network is down, retries with growing waits, and keeps the text', async () => {
    const { saver, sent, storage, state } = setup('', ['network', 'network', { ok: true }]);
    saver.start();
    saver.change('offline words');
    await vi.advanceTimersByTimeAsync(800);
    expect(state().kind).toBe('unsaved');
    expect(storage.getItem(noteStorageKey(7))).toBe('offline words');
    await vi.advanceTimersByTimeAsync(1_000);
    expect(sent).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1_999);
    expect(sent).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(sent).toHaveLength(3);
    expect(state().kind).toBe('saved');
    expect(storage.getItem(noteStorageKey(7))).toBeNull();
  });

  it('retries at once when the browser is back online', async () => {
    const { saver, sent, state } = setup('', ['network']);
    saver.start();
    saver.change('text');
    await vi.advanceTimersByTimeAsync(800);
    expect(state().kind).toBe('unsaved');
    saver.online();
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toHaveLength(2);
    expect(state().kind).toBe('saved');
  });

  it('shows a refusal with its message and does not retry it', async () => {
    const message = 'Notes are limited to 20,000 characters per lesson.';
    const { saver, sent, state } = setup('', [{ ok: false, retry: false, message }]);
    saver.start();
    saver.change('x'.repeat(20_001));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sent).toHaveLength(1);
    expect(state()).toEqual({ kind: 'unsaved', message });
  });

  it('drops the local copy of a lesson that is gone (404), so it is not sent again and again', async () => {
    const { saver, storage } = setup('', [
      { ok: false, retry: false, gone: true, message: 'Not Found' },
    ]);
    saver.start();
    saver.change('orphan');
    await vi.advanceTimersByTimeAsync(800);
    expect(storage.getItem(noteStorageKey(7))).toBeNull();
  });

  it('never has two saves in flight: a change during a save is sent after it', async () => {
    let release: (outcome: SendOutcome) => void = () => undefined;
    const sent: string[] = [];
    const saver = new NoteSaver(
      {
        lessonId: 1,
        storage: null,
        debounceMs: 800,
        onState: () => undefined,
        send: (body) => {
          sent.push(body);
          return new Promise((resolve) => (release = resolve));
        },
      },
      '',
    );
    saver.change('one');
    await vi.advanceTimersByTimeAsync(800);
    saver.change('one two');
    await vi.advanceTimersByTimeAsync(800);
    expect(sent).toEqual(['one']);
    release({ ok: true });
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toEqual(['one', 'one two']);
  });

  it('re-sends on the next load what an earlier page could not save', async () => {
    const first = setup('', ['network']);
    first.saver.start();
    first.saver.change('typed before the tab closed');
    await vi.advanceTimersByTimeAsync(800);
    first.saver.stop();

    const storage = first.storage;
    const sent: string[] = [];
    const next = new NoteSaver(
      {
        lessonId: 7,
        storage,
        debounceMs: 800,
        onState: () => undefined,
        send: async (body) => {
          sent.push(body);
          return { ok: true };
        },
      },
      'older server text',
    );
    expect(next.start()).toBe('typed before the tab closed');
    await vi.advanceTimersByTimeAsync(0);
    expect(sent).toEqual(['typed before the tab closed']);
    expect(storage.getItem(noteStorageKey(7))).toBeNull();
  });

  it('sends what is unsaved with keepalive when the page goes away', () => {
    const { saver, sent } = setup();
    saver.start();
    saver.change('last words');
    saver.leave();
    expect(sent).toEqual([{ body: 'last words', keepalive: true }]);
  });

  it('caps the retry wait', () => {
    expect([1, 2, 3].map((n) => retryDelayMs(n, 1_000, 30_000))).toEqual([1_000, 2_000, 4_000]);
    expect(retryDelayMs(50, 1_000, 30_000)).toBe(30_000);
  });
});

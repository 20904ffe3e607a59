import { randomBytes } from 'node:crypto';
import { env } from './env.server';
import { log } from './logger.server';
import { producerRedis, subscribeWhenReady, subscriberRedis, waitForRedis } from './redis.server';

/**
 * A text the worker is still writing (a lesson streamed from the model), shared through Redis so
 * that any web process can show it as it grows: the draft so far sits in a key with a TTL (late
 * joiners start from it), and each new piece is published on one channel. Each try of the writer
 * has its own id: a new try (after a crash or a failure) starts the draft over, and a reader
 * that sees pieces of a try it does not know reads the key again. Nothing here is the product's
 * record: the stored lesson is, and a lost piece only costs a re-read.
 */
export type DraftKey = `lesson:${number}`;

/** A draft no writer touched for this long is gone (a killed worker's leftovers). */
const DRAFT_TTL_SECONDS = 600;

type DraftMessage =
  | { k: DraftKey; g: string; at: number; t: string }
  | { k: DraftKey; g: string; reset: true; t: string }
  | { k: DraftKey; done: true };

/**
 * Appends a piece and tells the readers, only while the draft is this try's (ARGV[5] is its id): a
 * piece never lands in another try's text, nor makes a draft without its try's id.
 */
const APPEND_SCRIPT = `
if redis.call('GETRANGE', KEYS[1], 0, string.len(ARGV[5])) ~= ARGV[5] .. '\\n' then return -1 end
redis.call('APPEND', KEYS[1], ARGV[1])
redis.call('EXPIRE', KEYS[1], ARGV[2])
return redis.call('PUBLISH', ARGV[3], ARGV[4])`;

/** Removes the draft and announces the end, unless another try has replaced it meanwhile. */
const FINISH_SCRIPT = `
local head = redis.call('GETRANGE', KEYS[1], 0, string.len(ARGV[1]))
if head ~= '' and head ~= ARGV[1] .. '\\n' then return 0 end
redis.call('DEL', KEYS[1])
return redis.call('PUBLISH', ARGV[2], ARGV[3])`;

/** How long the first write of a try waits for this process's Redis connection. */
const START_WAIT_MS = 2000;

const channel = () => `${env().REDIS_PREFIX}:drafts`;
const draftKey = (key: DraftKey) => `${env().REDIS_PREFIX}:draft:${key}`;

function warn(what: string, key: DraftKey, error: unknown) {
  log.warn(`drafts.${what}_failed`, { key, error });
}

export interface DraftWriter {
  /** Adds a piece of text; never throws (a draft must not fail the work it shows). */
  append: (text: string) => void;
  /** Resolves once every piece appended so far is in Redis and its readers were told. */
  settled: () => Promise<void>;
  /** The work ended (stored, or failed): the draft goes away and readers are told. */
  finish: () => Promise<void>;
}

/**
 * Starts a new try's draft of `key`, replacing whatever an earlier try left. Writes go out one at
 * a time on one connection; `finish` waits for them. The writer keeps its whole text, so a write
 * that failed (Redis slow to connect, or away for a moment) costs nothing: the next one writes
 * the draft whole again, and readers start over from it.
 */
export function startDraft(key: DraftKey): DraftWriter {
  const redis = producerRedis();
  const id = randomBytes(6).toString('base64url');
  let text = '';
  /** How much of `text` Redis holds; nothing until the try's draft is (re)written whole. */
  let stored = 0;
  let started = false;
  /** Another try owns the draft now (this one is a stalled leftover): stop writing. */
  let replaced = false;

  const write = async () => {
    const upTo = text.length;
    if (replaced || (started && upTo === stored)) return;
    try {
      if (!started) {
        await waitForRedis(START_WAIT_MS);
        const whole = text.slice(0, upTo);
        const reset: DraftMessage = { k: key, g: id, reset: true, t: whole };
        await redis
          .multi()
          .set(draftKey(key), `${id}\n${whole}`, 'EX', DRAFT_TTL_SECONDS)
          .publish(channel(), JSON.stringify(reset))
          .exec();
        started = true;
      } else {
        const piece = text.slice(stored, upTo);
        const message: DraftMessage = { k: key, g: id, at: stored, t: piece };
        const published = await redis.eval(
          APPEND_SCRIPT,
          1,
          draftKey(key),
          piece,
          DRAFT_TTL_SECONDS,
          channel(),
          JSON.stringify(message),
          id,
        );
        if (published === -1) {
          // Another try's draft, or none (expired): a stalled try must not write any more.
          replaced = true;
          log.info('drafts.replaced', { key, tryId: id });
        }
      }
      stored = upTo;
    } catch (error) {
      warn(started ? 'append' : 'start', key, error);
      started = false;
    }
  };

  // Pieces that arrive while a write is under way go out together in the next one: a model
  // (or a burst of fifty lessons) can outpace Redis, and one round trip per word then costs the
  // worker more CPU than the lesson. Readers see the same text, in fewer, longer pieces.
  let queued = false;
  let pending = Promise.resolve();
  const schedule = () => {
    if (queued) return;
    queued = true;
    pending = pending.then(() => {
      queued = false;
      return write();
    });
  };
  schedule();

  return {
    append(piece) {
      if (!piece) return;
      text += piece;
      schedule();
    },
    settled: () => pending,
    async finish() {
      await pending;
      const done: DraftMessage = { k: key, done: true };
      await redis
        .eval(FINISH_SCRIPT, 1, draftKey(key), id, channel(), JSON.stringify(done))
        .catch((error: unknown) => warn('finish', key, error));
    },
  };
}

/** What a reader of a draft is told. */
export type DraftEvent =
  { type: 'reset'; text: string } | { type: 'append'; text: string } | { type: 'done' };

const followers = new Map<DraftKey, Set<(message: DraftMessage) => void>>();
let subscribed: Promise<unknown> | undefined;

/** Resolves once this process hears the channel (a reader reads the draft only then). */
function subscribe(): Promise<unknown> {
  if (subscribed) return subscribed;
  if (!listening) listenForDrafts(subscriberRedis());
  subscribed = subscribeWhenReady(channel()).catch((error: unknown) => {
    subscribed = undefined;
    log.warn('drafts.subscribe_failed', { error });
  });
  return subscribed;
}

let listening = false;

function listenForDrafts(redis: ReturnType<typeof subscriberRedis>) {
  listening = true;
  redis.on('message', (from: string, raw: string) => {
    if (from !== channel()) return;
    let message: DraftMessage;
    try {
      message = JSON.parse(raw) as DraftMessage;
    } catch {
      return;
    }
    for (const follow of followers.get(message.k) ?? []) follow(message);
  });
}

async function readDraft(key: DraftKey): Promise<{ id: string; text: string }> {
  await waitForRedis(2000);
  const value = await producerRedis().get(draftKey(key));
  const newline = value?.indexOf('\n') ?? -1;
  if (value === null || newline < 0) return { id: '', text: '' };
  return { id: value.slice(0, newline), text: value.slice(newline + 1) };
}

/**
 * Follows the draft of `key` until `signal` aborts: first the text so far (a `reset`), then each
 * new piece in order. A piece that does not follow on (a lost message, another try) makes the
 * reader read the whole draft again. `done` when the writer finished.
 */
export async function followDraft(
  key: DraftKey,
  signal: AbortSignal,
  onEvent: (event: DraftEvent) => void,
): Promise<void> {
  const heard = subscribe();
  // Messages that arrive while the draft is read are kept and applied after it, in order.
  let state: { id: string; text: string } | undefined;
  let backlog: DraftMessage[] = [];
  let rereading = false;

  const reread = async () => {
    rereading = true;
    backlog = [];
    try {
      state = await readDraft(key);
    } catch (error) {
      warn('read', key, error);
      state = { id: '', text: '' };
    }
    rereading = false;
    if (signal.aborted) return;
    onEvent({ type: 'reset', text: state.text });
    const queued = backlog;
    backlog = [];
    for (const message of queued) apply(message);
  };

  const apply = (message: DraftMessage) => {
    if (signal.aborted) return;
    if (!state || rereading) {
      backlog.push(message);
      return;
    }
    if ('done' in message) {
      onEvent({ type: 'done' });
      return;
    }
    if ('reset' in message) {
      state = { id: message.g, text: message.t };
      onEvent({ type: 'reset', text: message.t });
      return;
    }
    const end = message.at + message.t.length;
    if (message.g !== state.id || message.at > state.text.length) {
      log.info('drafts.reread', {
        key,
        reason: message.g === state.id ? 'gap' : 'another try',
        at: message.at,
        known: state.text.length,
      });
      void reread();
      return;
    }
    if (end <= state.text.length) return; // already in the text read
    const fresh = message.t.slice(state.text.length - message.at);
    state.text += fresh;
    onEvent({ type: 'append', text: fresh });
  };

  let set = followers.get(key);
  if (!set) followers.set(key, (set = new Set()));
  set.add(apply);
  const stop = () => {
    const current = followers.get(key);
    current?.delete(apply);
    if (current?.size === 0) followers.delete(key);
  };
  if (signal.aborted) return stop();
  signal.addEventListener('abort', stop, { once: true });
  await heard;
  await reread();
}

import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What the app keeps per async context (the request's id, the transaction under way, the rate
 * limits an API request counted), each value in a slot of its own of ONE AsyncLocalStorage. On
 * Node 20 every AsyncLocalStorage in use copies its value onto each promise the process makes
 * from then on: two of them cost twice that on every await of every request (ADR 0064 measured
 * the request id's own storage at 0.1 µs an await, 3–17 % of a `GET /api/courses`); one shared
 * costs it once.
 */
const storage = new AsyncLocalStorage<Readonly<Record<symbol, unknown>>>();

export interface ContextSlot<T> {
  /** The value the code running now was given, if any. */
  get(): T | undefined;
  /** Runs `body` with this slot set to `value`; the other slots keep theirs. */
  run<R>(value: T, body: () => R): R;
}

export function contextSlot<T>(name: string): ContextSlot<T> {
  const key = Symbol(name);
  return {
    get: () => storage.getStore()?.[key] as T | undefined,
    run: (value, body) => storage.run({ ...storage.getStore(), [key]: value }, body),
  };
}

/**
 * One value per process for what holds a resource (a database connection, Redis connections,
 * the demo mocks' interceptor). In development Vite runs the app's modules again when a file
 * they import changes; without this, each edit would open another connection or install another
 * interceptor. The map is kept on `globalThis` in every process: production loads every module
 * once (ADR 0028), so there it would not need to be, but one code path is simpler than two.
 */
const holder = globalThis as { __coursegenSingletons?: Map<string, unknown> };
const store = (holder.__coursegenSingletons ??= new Map<string, unknown>());

export function singleton<T>(name: string, make: () => T): T {
  if (!store.has(name)) store.set(name, make());
  return store.get(name) as T;
}

/** Forgets a value (after closing it), so that the next `singleton` call makes a new one. */
export function forgetSingleton(name: string) {
  store.delete(name);
}

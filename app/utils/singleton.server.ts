/**
 * One value per process for what holds a resource (a database connection, Redis connections,
 * the demo mocks' interceptor). In development Vite runs the app's modules again when a file
 * they import changes; without this, each edit would open another connection or install another
 * interceptor. Production loads every module once (ADR 0028), so there it is a plain variable.
 */
const values = new Map<string, unknown>();
const store: Map<string, unknown> = ((
  globalThis as { __coursegenSingletons?: Map<string, unknown> }
).__coursegenSingletons ??= values);

export function singleton<T>(name: string, make: () => T): T {
  if (!store.has(name)) store.set(name, make());
  return store.get(name) as T;
}

/** Forgets a value (after closing it), so that the next `singleton` call makes a new one. */
export function forgetSingleton(name: string) {
  store.delete(name);
}

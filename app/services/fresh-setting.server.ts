import { readSetting } from '~/models/settings.server';
import { log } from '~/utils/logger.server';

/**
 * A setting every process reads through, kept for `freshMs` so that a change reaches every web
 * process and node within that time without a restart (ADR 0055). `parse` turns the stored JSON
 * (null when the row is missing or unreadable) into what callers use, defaults included.
 */
export function freshSetting<T>(key: string, freshMs: number, parse: (stored: unknown) => T) {
  let cached: { value: T; readAt: number } | null = null;
  return {
    async read(): Promise<T> {
      if (cached && Date.now() - cached.readAt < freshMs) return cached.value;
      const row = await readSetting(key);
      let stored: unknown = null;
      try {
        stored = row ? JSON.parse(row.value) : null;
      } catch {
        log.error('settings.unreadable', { key });
      }
      cached = { value: parse(stored), readAt: Date.now() };
      return cached.value;
    },
    /** The next `read()` reads the database. */
    forget() {
      cached = null;
    },
  };
}

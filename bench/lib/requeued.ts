import type { RunningApp } from '../../tests/support/app-process';

/** Lost work the sweeper had to give a job again, from the app's log, by kind. */
export function requeued(app: RunningApp): Record<string, number> {
  const found: Record<string, number> = {};
  for (const line of app.output().split('\n')) {
    if (!line.includes('"sweep.requeued"')) continue;
    try {
      const entry = JSON.parse(line) as Record<string, unknown>;
      for (const [kind, value] of Object.entries(entry))
        if (typeof value === 'number' && value > 0) found[kind] = (found[kind] ?? 0) + value;
    } catch {
      found.unreadable = (found.unreadable ?? 0) + 1;
    }
  }
  return found;
}

import { currentRequestId } from './request-context.server';

type Level = 'debug' | 'info' | 'warn' | 'error';
const ORDER: Record<Level | 'silent', number> = {
  debug: 10,
  info: 20,
  warn: 30,
  error: 40,
  silent: 99,
};

function threshold(): number {
  const configured = process.env.LOG_LEVEL as Level | 'silent' | undefined;
  return ORDER[configured ?? 'info'] ?? ORDER.info;
}

function write(level: Level, event: string, fields: Record<string, unknown>) {
  if (ORDER[level] < threshold()) return;
  // The request (or job) this runs for, unless the caller names one itself.
  const requestId = currentRequestId();
  const line = JSON.stringify(
    {
      time: new Date().toISOString(),
      level,
      event,
      ...(requestId ? { requestId } : {}),
      ...fields,
    },
    (_, v) => (v instanceof Error ? { name: v.name, message: v.message, stack: v.stack } : v),
  );
  (level === 'error' || level === 'warn' ? process.stderr : process.stdout).write(line + '\n');
}

/**
 * Structured logs: one JSON line per event, with the request id of the request or job it runs
 * for (request-context.server.ts) and any other ids in `fields`.
 */
export const log = {
  debug: (event: string, fields: Record<string, unknown> = {}) => write('debug', event, fields),
  info: (event: string, fields: Record<string, unknown> = {}) => write('info', event, fields),
  warn: (event: string, fields: Record<string, unknown> = {}) => write('warn', event, fields),
  error: (event: string, fields: Record<string, unknown> = {}) => write('error', event, fields),
};

import { nextChange, type ChangeKey } from './changes.server';

/**
 * Long polling for the status routes: with `?known=<version>&wait=<ms>` the answer is held until
 * the state's version differs from the one the browser already has, or the wait ends, or the
 * browser leaves. The worker's change notification wakes the request at once; the state is read
 * again only then (and every few seconds, in case a notification was lost), never in a busy loop.
 * A member holds at most MAX_WAITS_PER_MEMBER waits; beyond that a request answers at once.
 */
const MAX_WAIT_MS = 20_000;
export const SAFETY_CHECK_MS = 3_000;
export const MAX_WAITS_PER_MEMBER = 4;

const waiting = new Map<string, number>();

export async function readWhenChanged<T extends { version: string }>(
  request: Request,
  /** Reads the state (from the database: usually async). */
  read: () => Promise<T | undefined> | T | undefined,
  on: { key: ChangeKey; memberId: string },
): Promise<T | undefined> {
  const url = new URL(request.url);
  const known = url.searchParams.get('known');
  const wait = Math.min(Math.max(Number(url.searchParams.get('wait')) || 0, 0), MAX_WAIT_MS);
  const first = await read();
  const held = waiting.get(on.memberId) ?? 0;
  if (!first || first.version !== known || wait === 0 || held >= MAX_WAITS_PER_MEMBER) return first;
  waiting.set(on.memberId, held + 1);
  try {
    const deadline = Date.now() + wait;
    for (;;) {
      const left = deadline - Date.now();
      if (left <= 0 || request.signal.aborted) return await read();
      await nextChange(on.key, Math.min(left, SAFETY_CHECK_MS), request.signal);
      const value = await read();
      if (!value || value.version !== known) return value;
    }
  } finally {
    const now = (waiting.get(on.memberId) ?? 1) - 1;
    if (now > 0) waiting.set(on.memberId, now);
    else waiting.delete(on.memberId);
  }
}

export function statusJson(body: unknown, status = 200) {
  return Response.json(body, { status, headers: { 'Cache-Control': 'no-store' } });
}

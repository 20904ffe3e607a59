import { useEffect, useRef, useState } from 'react';

/**
 * Follows a status resource route (see long-poll.server.ts): asks for the next
 * change of `initial`, and again after each answer, until `isFinal` says the
 * state will not change any more. Network errors are retried after a second.
 */
export function useLongPoll<T extends { version: string }>(
  url: string,
  initial: T,
  isFinal: (value: T) => boolean,
): T {
  const [value, setValue] = useState<T>(initial);
  const latest = useRef({ initial, isFinal });
  latest.current = { initial, isFinal };

  useEffect(() => {
    const { initial: start, isFinal: finished } = latest.current;
    setValue(start);
    if (finished(start)) return;
    const controller = new AbortController();
    let known = start.version;
    void (async () => {
      while (!controller.signal.aborted) {
        try {
          const params = new URLSearchParams({ known, wait: '20000' });
          const asked = Date.now();
          const response = await fetch(`${url}?${params}`, {
            signal: controller.signal,
            headers: { Accept: 'application/json' },
          });
          if (response.status === 404 || response.status === 401) return;
          if (!response.ok) throw new Error(`status ${response.status}`);
          const next = (await response.json()) as T;
          // Answered at once with nothing new: the server holds no more waits for this member
          // (other tabs); ask again in a moment rather than at once.
          if (next.version === known && Date.now() - asked < 1000)
            await new Promise((resolve) => setTimeout(resolve, 2000));
          known = next.version;
          setValue(next);
          if (latest.current.isFinal(next)) return;
        } catch {
          if (controller.signal.aborted) return;
          await new Promise((resolve) => setTimeout(resolve, 1000));
        }
      }
    })();
    return () => controller.abort();
  }, [url]);

  return value;
}

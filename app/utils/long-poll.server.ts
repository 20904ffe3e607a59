/**
 * Long polling for the status routes: with `?known=<version>&wait=<ms>` the
 * answer is held until the state's version differs from the one the browser
 * already has (checked every 50 ms), or the wait ends, or the browser leaves.
 * Without them it answers at once. A change reaches the page within ~50 ms
 * without hammering the server with requests.
 */
export const MAX_WAIT_MS = 20_000;
const CHECK_EVERY_MS = 50;

export async function readWhenChanged<T extends { version: string }>(
  request: Request,
  read: () => T | undefined,
): Promise<T | undefined> {
  const url = new URL(request.url);
  const known = url.searchParams.get('known');
  const wait = Math.min(Math.max(Number(url.searchParams.get('wait')) || 0, 0), MAX_WAIT_MS);
  const deadline = Date.now() + wait;
  for (;;) {
    const value = read();
    if (!value || value.version !== known || Date.now() >= deadline || request.signal.aborted)
      return value;
    await new Promise((resolve) => setTimeout(resolve, CHECK_EVERY_MS));
  }
}

export function statusJson(body: unknown, status = 200) {
  return Response.json(body, { status, headers: { 'Cache-Control': 'no-store' } });
}

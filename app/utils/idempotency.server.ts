import { createHash } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { env } from './env.server';
import { log } from './logger.server';
import { producerRedis, waitForRedis } from './redis.server';
import { apiError } from './responses.server';

/**
 * `Idempotency-Key` on the API's creating POSTs (ADR 0057), as Stripe has it: a client that
 * retries a request with the same key gets the first answer again instead of a second course or
 * a second checkout. Kept in Redis per member for 24 hours, shared by every web process:
 *
 * - the first request with a key claims it (SET NX) and runs; its answer is stored;
 * - the same key and body again: the stored answer, with `Idempotent-Replayed: true`;
 * - the same key while the first still runs: waits for its answer (up to WAIT_MS, then 409
 *   `idempotency_key_in_use` with Retry-After);
 * - the same key with another body (or on another route): 422 `idempotency_key_reused`.
 *
 * Answers that say "try again" (429, 5xx) are not kept: the key is freed, and a retry runs anew.
 * Redis away: the request runs unprotected, logged, as the rate limits' outage rule goes.
 */
const IDEMPOTENCY_HEADER = 'Idempotency-Key';
const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;
const WAIT_MS = 10_000;
const POLL_MS = 100;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

const KEY_REUSED_MESSAGE =
  'This Idempotency-Key was used with another request. Use a new key for a new request.';
const KEY_IN_USE_MESSAGE =
  'A request with this Idempotency-Key is still running. Please retry in a moment.';
const INVALID_KEY_MESSAGE = 'Idempotency-Key must be 1 to 255 visible ASCII characters';

type Stored =
  | { state: 'running'; fingerprint: string }
  | {
      state: 'done';
      fingerprint: string;
      status: number;
      headers: [string, string][];
      body: string;
    };

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Answers kept for a retry: everything but what asks to be tried again. */
const keeps = (status: number) => status !== 429 && status < 500;

function replay(stored: Extract<Stored, { state: 'done' }>): Response {
  const headers = new Headers(stored.headers);
  headers.set('Idempotent-Replayed', 'true');
  return new Response(stored.body, { status: stored.status, headers });
}

/**
 * Runs `run` at most once per member and Idempotency-Key; without the header, just runs it.
 * Call it after authenticating and before reading the body.
 */
export async function idempotent(
  request: Request,
  memberId: string,
  run: () => Promise<Response>,
): Promise<Response> {
  const key = request.headers.get(IDEMPOTENCY_HEADER);
  if (key === null) return run();
  if (!KEY_PATTERN.test(key))
    return apiError(400, INVALID_KEY_MESSAGE, { param: IDEMPOTENCY_HEADER });
  const url = new URL(request.url);
  const fingerprint = sha256(`${request.method} ${url.pathname}\n${await request.clone().text()}`);
  const redisKey = `${env().REDIS_PREFIX}:idempotency:${memberId}:${sha256(key)}`;
  const redis = producerRedis();
  try {
    await waitForRedis(1_000);
    const deadline = Date.now() + WAIT_MS;
    for (;;) {
      const running: Stored = { state: 'running', fingerprint };
      const claimed = await redis.set(
        redisKey,
        JSON.stringify(running),
        'EX',
        IDEMPOTENCY_TTL_SECONDS,
        'NX',
      );
      if (claimed === 'OK') break;
      const raw = await redis.get(redisKey);
      if (raw === null) continue; // freed meanwhile: claim it
      const stored = JSON.parse(raw) as Stored;
      if (stored.fingerprint !== fingerprint)
        return apiError(422, KEY_REUSED_MESSAGE, {
          code: 'idempotency_key_reused',
          param: IDEMPOTENCY_HEADER,
        });
      if (stored.state === 'done') return replay(stored);
      if (Date.now() >= deadline)
        return apiError(409, KEY_IN_USE_MESSAGE, {
          code: 'idempotency_key_in_use',
          headers: { 'Retry-After': '1' },
        });
      await sleep(POLL_MS);
    }
  } catch (error) {
    log.warn('idempotency.unavailable', { error });
    return run();
  }

  let response: Response;
  try {
    response = await run();
  } catch (thrown) {
    if (!(thrown instanceof Response)) {
      await redis.del(redisKey).catch(() => undefined);
      throw thrown;
    }
    response = thrown;
  }
  const body = await response.text();
  const done: Stored = {
    state: 'done',
    fingerprint,
    status: response.status,
    headers: [...response.headers].filter(([name]) => name.toLowerCase() !== 'set-cookie'),
    body,
  };
  await (
    keeps(response.status)
      ? redis.set(redisKey, JSON.stringify(done), 'EX', IDEMPOTENCY_TTL_SECONDS)
      : redis.del(redisKey)
  ).catch((error: unknown) => log.warn('idempotency.store_failed', { error }));
  return new Response(body, { status: response.status, headers: response.headers });
}

import type { RunningApp } from '../../tests/support/app-process';
import { createMember, sessionCookieValue } from '../../tests/support/members';

/** A signed-in member talking to the running app over HTTP, as the pages do. */
export interface MemberClient {
  base: string;
  cookie: string;
}

export async function memberClient(
  app: RunningApp,
  plan: 'free' | 'monthly',
): Promise<MemberClient> {
  const member = await createMember(app, { plan });
  return {
    base: app.baseURL,
    cookie: `__session=${await sessionCookieValue(app, member)}`,
  };
}

/** Writes a web process refused with 503 and Retry-After (its queue of writes was full). */
export const refusals = { count: 0 };
const RETRIES_AFTER_REFUSAL = 10;

/**
 * Fetches without following redirects; any 4xx or 5xx fails the benchmark, except a 503 with
 * Retry-After, which is asked again after that wait, as a well-behaved client does.
 */
export async function request(client: MemberClient, path: string, init: RequestInit = {}) {
  for (let attempt = 0; ; attempt += 1) {
    const response = await fetch(`${client.base}${path}`, {
      redirect: 'manual',
      ...init,
      headers: {
        Cookie: client.cookie,
        Origin: client.base,
        ...(init.headers as Record<string, string>),
      },
    });
    const retryAfter = Number(response.headers.get('Retry-After'));
    if (response.status === 503 && retryAfter > 0 && attempt < RETRIES_AFTER_REFUSAL) {
      refusals.count += 1;
      await response.arrayBuffer();
      await new Promise((resolve) => setTimeout(resolve, retryAfter * 1000));
      continue;
    }
    if (response.status >= 400) throw new Error(`${path} answered ${response.status}`);
    return response;
  }
}

/** Posts a form the way the page does and returns where the app redirected. */
export async function post(client: MemberClient, path: string, form: URLSearchParams) {
  const response = await request(client, path, { method: 'POST', body: form });
  const location = response.headers.get('Location');
  if (response.status !== 302 || !location) throw new Error(`${path} did not redirect`);
  await response.arrayBuffer();
  return location;
}

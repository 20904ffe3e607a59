import { randomBytes } from 'node:crypto';
import type { AppLoadContext } from '@remix-run/node';
import { asc, eq } from 'drizzle-orm';
import { database, tables } from '~/utils/database.server';

/** A fresh, unique address for one test. */
export function uniqueEmail(label = 'member'): string {
  return `${label}-${randomBytes(5).toString('hex')}@example.com`;
}

/** A fresh client address, so one test's rate-limit counters never touch another's. */
export function uniqueIp(): string {
  const b = randomBytes(3);
  return `10.${b[0]}.${b[1]}.${b[2]}`;
}

type Handler = (args: {
  request: Request;
  params: Record<string, string | undefined>;
  context: AppLoadContext;
}) => unknown;

export interface CallOptions {
  cookie?: string | null;
  ip?: string;
  params?: Record<string, string>;
  /** JSON (API clients, the default) or a urlencoded form (pages). */
  as?: 'json' | 'form';
  /** A raw body sent as is, with this Content-Type. */
  raw?: { body: string; contentType: string };
  /** More request headers (e.g. a webhook's signature). */
  headers?: Record<string, string>;
}

/** Calls a route's action the way the server would, with a POST of `body`. */
export async function post(
  handler: Handler,
  path: string,
  body: Record<string, unknown> = {},
  options: CallOptions = {},
) {
  const headers = new Headers(options.headers);
  if (options.cookie) headers.set('Cookie', options.cookie);
  let payload: string;
  if (options.raw) {
    headers.set('Content-Type', options.raw.contentType);
    payload = options.raw.body;
  } else if (options.as === 'form') {
    headers.set('Content-Type', 'application/x-www-form-urlencoded');
    payload = new URLSearchParams(body as Record<string, string>).toString();
  } else {
    headers.set('Content-Type', 'application/json');
    payload = JSON.stringify(body);
  }
  const request = new Request(`http://localhost${path}`, {
    method: 'POST',
    headers,
    body: payload,
  });
  return handler({
    request,
    params: options.params ?? {},
    context: { clientIp: options.ip ?? uniqueIp() },
  });
}

/** Calls a route's loader with a GET. */
export async function get(handler: Handler, path: string, options: CallOptions = {}) {
  const headers = new Headers();
  if (options.cookie) headers.set('Cookie', options.cookie);
  return handler({
    request: new Request(`http://localhost${path}`, { headers }),
    params: options.params ?? {},
    context: { clientIp: options.ip ?? uniqueIp() },
  });
}

/** Runs a loader or action that may throw a Response (redirects, 401s) and gives back either. */
export async function settle(result: Promise<unknown>): Promise<unknown> {
  try {
    return await result;
  } catch (thrown) {
    return thrown;
  }
}

/** What a page action returned with `data(...)`: its body and status. */
export function pageResult(value: unknown): { status: number; data: unknown } {
  if (value instanceof Response) return { status: value.status, data: null };
  const v = value as { type?: string; data?: unknown; init?: { status?: number } | null };
  if (v?.type === 'DataWithResponseInit') return { status: v.init?.status ?? 200, data: v.data };
  return { status: 200, data: value };
}

/** The `name=value` part of a Set-Cookie for the session cookie, to send back as Cookie. */
export function sessionCookie(response: Response | Headers): string | null {
  const headers = response instanceof Response ? response.headers : response;
  const cookie = headers.getSetCookie().find((c) => c.startsWith('__session='));
  return cookie ? cookie.split(';')[0]! : null;
}

/** The mails to `address`, oldest first. */
export async function emailsTo(address: string) {
  const { outboxEmails } = tables;
  return database()
    .select()
    .from(outboxEmails)
    .where(eq(outboxEmails.to, address.toLowerCase()))
    .orderBy(asc(outboxEmails.id));
}

/** The token in the newest reset email to `address`. */
export function resetTokenFrom(html: string): string {
  const match = /\/reset-password\/([A-Za-z0-9_-]+)/.exec(html);
  if (!match) throw new Error('no reset link in the email');
  return match[1]!;
}

/** The token in an email-change confirmation email. */
export function verifyTokenFrom(html: string): string {
  const match = /\/verify-email\/([A-Za-z0-9_-]+)/.exec(html);
  if (!match) throw new Error('no confirmation link in the email');
  return match[1]!;
}

import { env } from './env.server';

/** Secure cookies in production; plain-http LAN hosts cannot keep them, localhost can. */
export function secureCookies(): boolean {
  const { NODE_ENV, APP_URL } = env();
  if (NODE_ENV !== 'production') return false;
  const url = new URL(APP_URL);
  return url.protocol === 'https:' || ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

import { env } from './env.server';

/**
 * Cookies are made Secure in production; the web server drops the attribute from responses to
 * plain-http requests from a host other than localhost (server/response-policy.ts), so a
 * self-hoster's http://myserver:3000 can sign in while https keeps its cookies secure.
 */
export function secureCookies(): boolean {
  return env().NODE_ENV === 'production';
}

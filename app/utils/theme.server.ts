import { createCookie } from '@remix-run/node';
import { secureCookies } from './cookies.server';

import type { Theme } from './theme';

export type { Theme };

function themeCookie() {
  return createCookie('theme', {
    path: '/',
    sameSite: 'lax',
    httpOnly: true,
    secure: secureCookies(),
    maxAge: 60 * 60 * 24 * 365,
  });
}

export async function getTheme(request: Request): Promise<Theme> {
  const value: unknown = await themeCookie().parse(request.headers.get('Cookie'));
  return value === 'dark' ? 'dark' : 'light';
}

export function serializeTheme(theme: Theme): Promise<string> {
  return themeCookie().serialize(theme);
}

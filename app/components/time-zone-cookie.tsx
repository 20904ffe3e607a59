import { useRevalidator } from '@remix-run/react';
import { useEffect } from 'react';
import { isTimeZone, TIME_ZONE_COOKIE } from '~/utils/time-zone';

/**
 * Tells the server the browser's time zone (a cookie, a year long), so "due today" means the
 * member's today (ADR 0033). When the page was worked out in another zone, it is loaded again,
 * once: a zone the server does not know leaves it on UTC, and the cookie already says so.
 */
export function TimeZoneCookie({ used }: { used: string }) {
  const { revalidate } = useRevalidator();
  useEffect(() => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const value = encodeURIComponent(zone);
    const sent = document.cookie.split('; ').includes(`${TIME_ZONE_COOKIE}=${value}`);
    if (!isTimeZone(zone) || zone === used || sent) return;
    document.cookie = `${TIME_ZONE_COOKIE}=${value}; path=/; max-age=31536000; samesite=lax`;
    revalidate();
  }, [used, revalidate]);
  return null;
}

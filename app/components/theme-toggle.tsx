import { Form, useLocation } from '@remix-run/react';
import type { Theme } from '~/utils/theme';

/** A plain form post, so it works without JavaScript; the server sets the cookie and reloads the page. */
export function ThemeToggle({ theme }: { theme: Theme }) {
  const location = useLocation();
  const next: Theme = theme === 'dark' ? 'light' : 'dark';
  return (
    <Form method="post" action="/theme" reloadDocument className="theme-toggle">
      <input type="hidden" name="theme" value={next} />
      <input type="hidden" name="redirectTo" value={location.pathname + location.search} />
      <button
        type="submit"
        className="icon-button"
        aria-label={next === 'dark' ? 'Switch to dark mode' : 'Switch to light mode'}
        data-testid="theme-toggle"
      >
        <span aria-hidden="true">{theme === 'dark' ? '☀' : '☾'}</span>
      </button>
    </Form>
  );
}

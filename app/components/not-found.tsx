import { Link } from '@remix-run/react';
import type { Theme } from '~/utils/theme';

export function NotFound({ theme }: { theme: Theme }) {
  const image = theme === 'dark' ? '/images/not-found-night.svg' : '/images/not-found-day.svg';
  return (
    <section className="page narrow center not-found" data-testid="not-found">
      <img
        src={image}
        alt={theme === 'dark' ? 'A quiet night sky' : 'A sunny day sky'}
        width={320}
        height={220}
        data-testid={`not-found-${theme === 'dark' ? 'night' : 'day'}`}
      />
      <h1>Page not found</h1>
      <p>The page you are looking for does not exist or has moved.</p>
      <Link to="/" className="button primary">
        Go home
      </Link>
    </section>
  );
}

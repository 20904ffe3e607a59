import { Link } from '@remix-run/react';
import type { Brand } from '~/domain/brand';

export function SiteFooter({ brand }: { brand: Brand | undefined }) {
  return (
    <footer className="site-footer">
      <nav aria-label="Footer" className="footer-nav">
        <Link to="/about">About</Link>
        <Link to="/privacy">Privacy Policy</Link>
        <Link to="/terms">Terms</Link>
        <Link to="/contact">Contact</Link>
        {brand?.supportEmail ? (
          <a href={`mailto:${brand.supportEmail}`} data-testid="support-email">
            {brand.supportEmail}
          </a>
        ) : null}
      </nav>
      {/* The year the page is made in; a page rendered on 31 December may hydrate on 1 January. */}
      <p suppressHydrationWarning>
        © {new Date().getFullYear()} {brand?.name ?? 'CourseGen'}. All rights reserved.
      </p>
    </footer>
  );
}

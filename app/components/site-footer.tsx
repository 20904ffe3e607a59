import { Link } from '@remix-run/react';

export function SiteFooter() {
  return (
    <footer className="site-footer">
      <nav aria-label="Footer" className="footer-nav">
        <Link to="/about">About</Link>
        <Link to="/privacy">Privacy Policy</Link>
        <Link to="/terms">Terms</Link>
        <Link to="/contact">Contact</Link>
      </nav>
      {/* The year the page is made in; a page rendered on 31 December may hydrate on 1 January. */}
      <p suppressHydrationWarning>© {new Date().getFullYear()} CourseGen. All rights reserved.</p>
    </footer>
  );
}

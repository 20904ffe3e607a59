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
      <p>© 2024 CourseGen. All rights reserved.</p>
    </footer>
  );
}

import { Link } from '@remix-run/react';

/** The 'Contact' button the marketing pages end with. */
export function ContactCta({ text = 'Questions? We are happy to help.' }: { text?: string }) {
  return (
    <section className="cta-band" aria-label="Contact us">
      <p>{text}</p>
      <Link to="/contact" className="button primary">
        Contact
      </Link>
    </section>
  );
}

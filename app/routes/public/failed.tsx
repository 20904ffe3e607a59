import type { MetaFunction } from '@remix-run/node';
import { Link } from '@remix-run/react';
import authStyles from '~/styles/auth.css?url';
import { siteName } from '~/utils/meta';

export const links = () => [{ rel: 'stylesheet', href: authStyles }];
export const meta: MetaFunction = ({ matches }) => [
  { title: `Payment Failed | ${siteName(matches)}` },
  { name: 'robots', content: 'noindex' },
];

/** Where a provider sends a buyer who cancelled or whose payment failed. Nothing was charged. */
export default function Failed() {
  return (
    <section className="auth-page">
      <div className="auth-card card">
        <h1>Payment Failed</h1>
        <p className="lead">Your payment failed. You can start the payment process again</p>
        <Link to="/pricing" className="button primary">
          Start Again
        </Link>
      </div>
    </section>
  );
}

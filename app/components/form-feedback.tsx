import { useEffect, useState } from 'react';
import { useLocation } from '@remix-run/react';
import { toast } from 'react-toastify';

/** What a page action answers when it stays on its page. */
export interface FormResult {
  success: boolean;
  message: string;
}

/** False on the server and during hydration, true once the browser runs the app. */
function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

/**
 * An action's message: the product's toast when JavaScript runs, and the same
 * text inline when the page was posted without JavaScript.
 */
export function FormFeedback({ result }: { result: FormResult | undefined }) {
  const hydrated = useHydrated();
  useEffect(() => {
    if (!result) return;
    if (result.success) toast.success(result.message);
    else toast.error(result.message);
  }, [result]);
  if (hydrated || !result) return null;
  return (
    <p
      role={result.success ? 'status' : 'alert'}
      className={result.success ? 'form-feedback' : 'form-feedback error-text'}
    >
      {result.message}
    </p>
  );
}

/**
 * For the account pages: when the server cannot answer at all, the product's
 * 'Internal Server Error' toast and a way to try again.
 */
export function FormErrorBoundary() {
  const location = useLocation();
  useEffect(() => {
    toast.error('Internal Server Error');
  }, []);
  return (
    <section className="auth-page">
      <div className="auth-card card">
        <h1>Something went wrong</h1>
        <p>Please try again in a moment.</p>
        <a className="button primary" href={location.pathname + location.search}>
          Try again
        </a>
      </div>
    </section>
  );
}

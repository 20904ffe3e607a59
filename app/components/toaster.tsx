import { lazy, Suspense, useEffect, useState } from 'react';
import type { Theme } from '~/utils/theme';

type ToastType = 'success' | 'error' | 'info';

const Container = lazy(async () => {
  const { ToastContainer, Slide } = await import('react-toastify');
  function Container({ theme }: { theme: Theme }) {
    return (
      <ToastContainer
        position="bottom-center"
        autoClose={3000}
        limit={3}
        transition={Slide}
        theme={theme === 'dark' ? 'dark' : 'light'}
      />
    );
  }
  return { default: Container };
});

/**
 * The toast area (bottom centre, 3 seconds, at most 3). It loads
 * react-toastify after hydration, so the library stays out of every page's
 * first load (the landing page's JavaScript budget); a toast raised before
 * the container is up waits in react-toastify's queue and shows once it is.
 */
export function Toaster({ theme }: { theme: Theme }) {
  const [ready, setReady] = useState(false);
  useEffect(() => setReady(true), []);
  if (!ready) return null;
  return (
    <Suspense fallback={null}>
      <Container theme={theme} />
    </Suspense>
  );
}

/** Shows a toast without pulling react-toastify into the caller's chunk. */
export function showToast(type: ToastType, message: string) {
  void import('react-toastify').then(({ toast }) => toast[type](message));
}

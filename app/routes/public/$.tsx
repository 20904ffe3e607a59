import { NotFound } from '~/components/not-found';
import { useRootData } from '~/root';

export function loader() {
  throw new Response('Not Found', { status: 404 });
}

export default function CatchAll() {
  return <NotFound theme={useRootData()?.theme ?? 'light'} />;
}

export function ErrorBoundary() {
  return <NotFound theme={useRootData()?.theme ?? 'light'} />;
}

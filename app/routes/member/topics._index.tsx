import { redirect } from '@remix-run/node';

/** /topics needs an outline id; without one there is nothing to show. */
export function loader() {
  return redirect('/create');
}

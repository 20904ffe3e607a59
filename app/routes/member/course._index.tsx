import { redirect } from '@remix-run/node';

/** /course needs a course id; without one there is nothing to show. */
export function loader() {
  return redirect('/create');
}

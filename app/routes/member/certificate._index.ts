import { redirect } from '@remix-run/node';

/** /certificate without a course has nothing to show. */
export function loader() {
  return redirect('/create');
}

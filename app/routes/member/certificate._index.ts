import { redirect } from '@remix-run/node';

/** /certificate without a course has nothing to show (spec: it goes to /create). */
export function loader() {
  return redirect('/create');
}

import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link } from '@remix-run/react';
import { requireUser } from '~/utils/auth.server';

// Placeholder until the course list replaces it.
export const meta: MetaFunction = () => [{ title: 'Home | CourseGen' }];

export async function loader({ request }: LoaderFunctionArgs) {
  await requireUser(request);
  return null;
}

export default function Home() {
  return (
    <section className="page">
      <h1>My Courses</h1>
      <p>Nothing Found</p>
      <Link to="/create" className="button primary">
        Generate Course
      </Link>
    </section>
  );
}

import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { getCourseForUser } from '~/models/courses.server';
import { requireUser } from '~/utils/auth.server';

export const meta: MetaFunction = () => [{ title: 'Certificate | CourseGen' }];

/** Placeholder until the completion issue brings the real certificate. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const course = getCourseForUser(params.courseId ?? '', user.id);
  if (!course) throw new Response('Not Found', { status: 404 });
  return { courseId: course.id, mainTopic: course.mainTopic };
}

export default function Certificate() {
  const { courseId, mainTopic } = useLoaderData<typeof loader>();
  return (
    <section className="page narrow center">
      <h1>Congratulations!</h1>
      <p>You finished {mainTopic}. Your certificate will be available here soon.</p>
      <Link to={`/course/${courseId}`} className="button">
        Back to the course
      </Link>
    </section>
  );
}

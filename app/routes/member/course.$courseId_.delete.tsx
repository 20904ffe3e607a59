import type {
  ActionFunctionArgs,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from '@remix-run/node';
import { Form, Link, redirect, useLoaderData, useNavigation } from '@remix-run/react';
import { getCourseForUser } from '~/models/courses.server';
import { deleteOwnCourse } from '~/services/course-deletion.server';
import courseStyles from '~/styles/course.css?url';
import { requireUser } from '~/utils/auth.server';
import { toastHeader } from '~/utils/toast.server';
import { languageAttributes } from '~/domain/languages';
import { siteName } from '~/utils/meta';

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: courseStyles }];
export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  {
    title: data
      ? `Delete ${data.course.mainTopic} | ${siteName(matches)}`
      : `Delete course | ${siteName(matches)}`,
  },
];

/**
 * The confirmation step of deleting a course (issue 38): a page of its own rather than a
 * dialog, so it works the same with and without JavaScript, and the course view and each /home
 * card only link here. Anyone else's course is a 404, as everywhere.
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const course = await getCourseForUser(params.courseId ?? '', user.id);
  if (!course) throw new Response('Not Found', { status: 404 });
  return { course: { id: course.id, mainTopic: course.mainTopic, language: course.language } };
}

export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const result = await deleteOwnCourse(user, params.courseId ?? '');
  if (!result.ok) throw new Response(result.message, { status: result.status });
  return redirect('/home', {
    headers: {
      'Set-Cookie': await toastHeader({ type: 'success', message: 'Course deleted' }),
    },
  });
}

export default function DeleteCourse() {
  const { course } = useLoaderData<typeof loader>();
  const deleting = useNavigation().state === 'submitting';
  return (
    <section className="page narrow delete-course-page">
      <h1>Delete this course?</h1>
      <p>
        <strong {...languageAttributes(course.language)}>{course.mainTopic}</strong>
      </p>
      <p>
        Its topics, lessons, quizzes and your answers, flashcards and their reviews, your notes, the
        tutor&apos;s answers, its share link, its certificate and the document it was written from
        are deleted with it. This cannot be undone.
      </p>
      <Form method="post" className="row">
        <button type="submit" className="button danger" disabled={deleting}>
          {deleting ? 'Deleting…' : 'Delete course'}
        </button>
        <Link to={`/course/${course.id}`} className="button">
          Keep it
        </Link>
      </Form>
    </section>
  );
}

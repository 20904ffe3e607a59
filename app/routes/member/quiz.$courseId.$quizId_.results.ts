import type { LoaderFunctionArgs } from '@remix-run/node';
import { quizResults } from '~/services/quizzes.server';
import { requireUser } from '~/utils/auth.server';

/** The member's scores at one quiz, newest first (JSON); anyone else's quiz is a 404. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const results = await quizResults(user.id, params.courseId ?? '', Number(params.quizId));
  if (!results.ok) return Response.json({ message: results.message }, { status: results.status });
  return Response.json(results.value);
}

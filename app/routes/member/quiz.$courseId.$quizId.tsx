import {
  data,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { QuizForm } from '~/components/quiz-form';
import { quizForMember, submitQuiz } from '~/services/quizzes.server';
import courseStyles from '~/styles/course.css?url';
import { requireUser } from '~/utils/auth.server';
import { readBody } from '~/utils/validation.server';
import { siteName } from '~/utils/meta';

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: courseStyles }];
export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  {
    title: data
      ? `${data.quiz.title} | ${data.course.mainTopic} | ${siteName(matches)}`
      : `Quiz | ${siteName(matches)}`,
  },
];

/**
 * A topic quiz or the final exam. The loader sends questions and options only; the right
 * options and explanations come back only in the action's answer, once the member has
 * submitted (ADR 0018).
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const view = await quizForMember(user.id, params.courseId ?? '', Number(params.quizId));
  if (!view.ok) throw new Response(view.message, { status: view.status });
  return view.value;
}

/** Marks a submission and stores it as an attempt; 400 with the reason for bad answers. */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const marked = await submitQuiz(
    user.id,
    params.courseId ?? '',
    Number(params.quizId),
    await readBody(request),
  );
  if (!marked.ok) {
    if (marked.status === 404) throw new Response('Not Found', { status: 404 });
    return data({ success: false as const, message: marked.message }, { status: marked.status });
  }
  return { success: true as const, ...marked.value };
}

export default function QuizPage() {
  const view = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return <QuizForm view={view} result={result} />;
}

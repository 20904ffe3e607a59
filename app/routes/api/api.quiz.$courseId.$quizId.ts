import type { ActionFunctionArgs, LoaderFunctionArgs } from '@remix-run/node';
import { API, apiJson } from '~/api/contract.server';
import { editQuiz, quizForEditing } from '~/services/quizzes.server';
import { requireApiUser } from '~/utils/auth.server';
import { failureJson, guardApi } from '~/utils/responses.server';
import { readBody } from '~/utils/validation.server';

/** GET: a quiz with its answer key, for its owner to edit (ADR 0061). Another member's: 404. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  return guardApi('quiz.loader', async () => {
    const user = await requireApiUser(request, context);
    const quiz = await quizForEditing(user.id, params.courseId ?? '', Number(params.quizId));
    if (!quiz.ok) return failureJson(quiz);
    return apiJson(API.quiz, 200, { success: true, quiz: quiz.value });
  });
}

/** POST { questions }: the author's edit, by the rules the AI's quizzes pass. */
export async function action({ request, params, context }: ActionFunctionArgs) {
  return guardApi('quiz.action', async () => {
    const user = await requireApiUser(request, context);
    const saved = await editQuiz(
      user.id,
      params.courseId ?? '',
      Number(params.quizId),
      await readBody(request),
    );
    if (!saved.ok) return failureJson(saved);
    return apiJson(API.editQuiz, 200, { success: true, quiz: saved.value });
  });
}

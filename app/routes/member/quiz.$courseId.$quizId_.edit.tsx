import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { languageAttributes } from '~/domain/languages';
import {
  MAX_QUIZ_EXPLANATION_CHARS,
  MAX_QUIZ_OPTION_CHARS,
  MAX_QUIZ_OPTIONS,
  MAX_QUIZ_QUESTION_CHARS,
} from '~/domain/quiz-editing';
import { editQuiz, quizForEditing } from '~/services/quizzes.server';
import courseStyles from '~/styles/course.css?url';
import { requireUser } from '~/utils/auth.server';
import { siteName } from '~/utils/meta';
import { toastHeader } from '~/utils/toast.server';
import { readBody } from '~/utils/validation.server';

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: courseStyles }];
export const meta: MetaFunction<typeof loader> = ({ data, matches }) => [
  {
    title: data
      ? `Edit quiz: ${data.quiz.title} | ${siteName(matches)}`
      : `Edit quiz | ${siteName(matches)}`,
  },
  { name: 'robots', content: 'noindex' },
];

/** A written quiz with its answer key, for its owner to edit (ADR 0061); anyone else gets a 404. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const view = await quizForEditing(user.id, params.courseId ?? '', Number(params.quizId));
  if (!view.ok) throw new Response(view.message, { status: view.status });
  // A quiz still being written cannot be edited: said on the page, with its status.
  return data(view.value, { status: view.value.busy ? 409 : 200 });
}

/**
 * Saves the edited questions and goes back to the quiz; a refused edit stays here with the rule
 * it broke (400) and what was typed, or says the quiz is being written (409).
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const body = await readBody(request);
  const saved = await editQuiz(user.id, params.courseId ?? '', Number(params.quizId), body);
  if (!saved.ok) {
    if (saved.status === 404) throw new Response('Not Found', { status: 404 });
    const typed = Object.fromEntries(
      Object.entries(body).filter(
        (entry): entry is [string, string] => typeof entry[1] === 'string',
      ),
    );
    return data({ message: saved.message, typed }, { status: saved.status });
  }
  return redirect(`/quiz/${saved.value.course.id}/${saved.value.quiz.id}`, {
    headers: { 'Set-Cookie': await toastHeader({ type: 'success', message: 'Quiz saved.' }) },
  });
}

export default function EditQuiz() {
  const view = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  const navigation = useNavigation();
  const text = languageAttributes(view.course.language);
  const back = `/quiz/${view.course.id}/${view.quiz.id}`;
  // After a refusal the form shows what was typed (without JavaScript the page is drawn anew).
  const typed = (name: string, stored: string) => refused?.typed[name] ?? stored;
  const heading = view.quiz.kind === 'exam' ? 'Final exam' : view.quiz.title;
  return (
    <section className="page quiz-editor" data-testid="quiz-editor">
      <p>
        <Link to={back}>← Back to the quiz</Link>
        {' · '}
        <Link to={`/course/${view.course.id}`}>{view.course.mainTopic}</Link>
      </p>
      <h1>
        Edit quiz: <span {...(view.quiz.kind === 'topic' ? text : {})}>{heading}</span>
      </h1>
      {view.busy ? (
        <p className="error-text" role="alert" data-testid="quiz-edit-busy">
          This quiz is still being written. You can edit it once its questions are ready.
        </p>
      ) : (
        <Form method="post" className="quiz-edit-form">
          <p className="muted">
            This page shows the right answers. Each question needs 2 to {MAX_QUIZ_OPTIONS} different
            options (leave a slot empty to drop it), the right one ticked, and a one-line
            explanation.
          </p>
          {refused ? (
            <p role="alert" className="error-text" data-testid="quiz-edit-error">
              {refused.message}
            </p>
          ) : null}
          <ol className="quiz-questions">
            {view.questions.map((question, index) => {
              const prefix = `q${index}-`;
              const chosen = typed(`${prefix}answer`, String(question.answer));
              return (
                <li key={index}>
                  <fieldset data-testid="quiz-edit-question">
                    <legend>Question {index + 1}</legend>
                    <label htmlFor={`${prefix}question`}>Question</label>
                    <input
                      id={`${prefix}question`}
                      name={`${prefix}question`}
                      type="text"
                      required
                      maxLength={MAX_QUIZ_QUESTION_CHARS}
                      defaultValue={typed(`${prefix}question`, question.question)}
                      {...text}
                    />
                    <fieldset className="quiz-option-slots">
                      <legend>Options: tick the right one</legend>
                      {Array.from({ length: MAX_QUIZ_OPTIONS }, (_, slot) => (
                        <div key={slot} className="quiz-option-slot">
                          <input
                            type="radio"
                            name={`${prefix}answer`}
                            value={slot}
                            defaultChecked={chosen === String(slot)}
                            aria-label={`Option ${slot + 1} is the right answer`}
                          />
                          <label htmlFor={`${prefix}option${slot}`}>Option {slot + 1}</label>
                          <input
                            id={`${prefix}option${slot}`}
                            name={`${prefix}option${slot}`}
                            type="text"
                            maxLength={MAX_QUIZ_OPTION_CHARS}
                            defaultValue={typed(
                              `${prefix}option${slot}`,
                              question.options[slot] ?? '',
                            )}
                            {...text}
                          />
                        </div>
                      ))}
                    </fieldset>
                    <label htmlFor={`${prefix}explanation`}>Explanation</label>
                    <input
                      id={`${prefix}explanation`}
                      name={`${prefix}explanation`}
                      type="text"
                      required
                      maxLength={MAX_QUIZ_EXPLANATION_CHARS}
                      defaultValue={typed(`${prefix}explanation`, question.explanation)}
                      {...text}
                    />
                  </fieldset>
                </li>
              );
            })}
          </ol>
          <div className="row">
            <button type="submit" className="button primary" disabled={navigation.state !== 'idle'}>
              Save quiz
            </button>
            <Link to={back} className="button">
              Cancel
            </Link>
          </div>
        </Form>
      )}
    </section>
  );
}

import { Form, Link, useNavigation, useRevalidator } from '@remix-run/react';
import { useEffect } from 'react';
import { languageAttributes } from '~/domain/languages';

interface Score {
  score: number;
  total: number;
  at: string;
}

export interface QuizPageView {
  course: { id: string; mainTopic: string; language: string };
  quiz: { id: number; kind: 'topic' | 'exam'; title: string; questionCount: number };
  state: string;
  tries: number;
  open: boolean;
  locked: boolean;
  questions: { question: string; options: string[] }[] | null;
  history: Score[];
}

export type QuizSubmission =
  | { success: false; message: string }
  | {
      success: true;
      score: number;
      total: number;
      results: { chosen: number; answer: number; correct: boolean; explanation: string }[];
      history: Score[];
    };

/** Reloads the page every few seconds while the quiz is still being written. */
function useWaitForQuestions(waiting: boolean) {
  const { revalidate, state } = useRevalidator();
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(() => {
      if (state === 'idle') revalidate();
    }, 2_000);
    return () => clearInterval(timer);
  }, [waiting, revalidate, state]);
}

const percent = ({ score, total }: { score: number; total: number }) =>
  total ? Math.round((score / total) * 100) : 0;

/** Text in one piece, so the server's HTML reads as the page does. */
function historyLine(history: Score[], best: Score | undefined) {
  const last = history[0]!;
  const count = `${history.length} attempt${history.length === 1 ? '' : 's'}`;
  return `Last score ${last.score}/${last.total}${best ? ` · best ${best.score}/${best.total}` : ''} · ${count}`;
}

/**
 * A quiz to answer, then its marking: the score, each question's right option and the one-line
 * explanation (which only the submission's answer carries), and a retake.
 */
export function QuizForm({ view, result }: { view: QuizPageView; result?: QuizSubmission }) {
  const navigation = useNavigation();
  const text = languageAttributes(view.course.language);
  const writing = !view.questions && !view.locked;
  useWaitForQuestions(writing);
  const marked = result?.success ? result : undefined;
  const best = view.history.reduce<Score | undefined>(
    (top, each) => (!top || percent(each) > percent(top) ? each : top),
    undefined,
  );
  const heading = view.quiz.kind === 'exam' ? 'Final exam' : `Quiz: ${view.quiz.title}`;

  return (
    <section className="page quiz-page" data-testid="quiz">
      <p>
        <Link to={`/course/${view.course.id}`}>← Back to {view.course.mainTopic}</Link>
        {view.state === 'done' ? (
          <>
            {' · '}
            <Link to={`/quiz/${view.course.id}/${view.quiz.id}/edit`} data-testid="edit-quiz">
              Edit quiz
            </Link>
          </>
        ) : null}
      </p>
      <h1 {...(view.quiz.kind === 'topic' ? text : {})}>{heading}</h1>
      {view.history.length > 0 ? (
        <p className="muted" data-testid="quiz-history">
          {historyLine(view.history, best)}
        </p>
      ) : null}
      {!view.questions ? (
        view.locked ? (
          <p data-testid="quiz-locked">
            The final exam opens once you have finished every lesson of the course.
          </p>
        ) : (
          <p role="status" data-testid="quiz-writing">
            {`This quiz is being written…${view.tries > 0 ? ` (try ${view.tries + 1})` : ''}`}
          </p>
        )
      ) : marked ? (
        <div data-testid="quiz-result">
          <p className="quiz-score" role="status" data-testid="quiz-score">
            {`You scored ${marked.score} out of ${marked.total} (${percent(marked)}%).`}
          </p>
          <ol className="quiz-questions">
            {view.questions.map((question, index) => {
              const mark = marked.results[index]!;
              return (
                <li key={index} data-testid="quiz-marked" data-correct={mark.correct}>
                  <p {...text}>{question.question}</p>
                  <p>
                    {mark.correct ? '✓ Right: ' : '✗ Your answer: '}
                    <span {...text}>{question.options[mark.chosen]}</span>
                  </p>
                  {mark.correct ? null : (
                    <p>
                      Right answer: <span {...text}>{question.options[mark.answer]}</span>
                    </p>
                  )}
                  <p className="muted" data-testid="quiz-explanation" {...text}>
                    {mark.explanation}
                  </p>
                </li>
              );
            })}
          </ol>
          <Link to="." className="button primary">
            Retake the quiz
          </Link>
        </div>
      ) : (
        <Form method="post" className="quiz-form">
          {result && !result.success ? (
            <p role="alert" className="form-feedback error-text">
              {result.message}
            </p>
          ) : null}
          <ol className="quiz-questions">
            {view.questions.map((question, index) => (
              <li key={index}>
                <fieldset>
                  <legend {...text}>{question.question}</legend>
                  {question.options.map((option, choice) => (
                    <label key={choice} className="quiz-option">
                      <input type="radio" name={`q${index}`} value={choice} required />{' '}
                      <span {...text}>{option}</span>
                    </label>
                  ))}
                </fieldset>
              </li>
            ))}
          </ol>
          <button type="submit" className="button primary" disabled={navigation.state !== 'idle'}>
            Submit answers
          </button>
        </Form>
      )}
    </section>
  );
}

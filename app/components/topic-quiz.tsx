import { Link } from '@remix-run/react';

export interface QuizLinkData {
  id: number;
  kind: 'topic' | 'exam';
  ready: boolean;
  open: boolean;
  attempts: number;
  best: { score: number; total: number } | null;
  last: { score: number; total: number } | null;
}

/** A topic's quiz (or the final exam) in the course outline, with the member's best and last score. */
export function QuizLink({ quiz, courseId }: { quiz: QuizLinkData | undefined; courseId: string }) {
  if (!quiz) return null;
  const label = quiz.kind === 'exam' ? 'Final exam' : 'Topic quiz';
  const status = !quiz.ready
    ? 'being written'
    : !quiz.open
      ? 'opens when every lesson is done'
      : quiz.best && quiz.last
        ? `best ${quiz.best.score}/${quiz.best.total} · last ${quiz.last.score}/${quiz.last.total}`
        : 'not taken yet';
  return (
    <p className="quiz-link" data-testid={quiz.kind === 'exam' ? 'exam-link' : 'quiz-link'}>
      <Link to={`/quiz/${courseId}/${quiz.id}`} data-quiz-id={quiz.id}>
        {label}
      </Link>{' '}
      <span className="muted" data-testid="quiz-status">
        {status}
      </span>
      {quiz.ready ? (
        <>
          {' · '}
          <Link to={`/quiz/${courseId}/${quiz.id}/edit`} data-testid="edit-quiz-link">
            Edit quiz
          </Link>
        </>
      ) : null}
    </p>
  );
}

/** A course card's quiz results: how many quizzes were taken and the best exam score. */
export function QuizResultsLine({
  summary,
}: {
  summary: { quizzes: number; taken: number; examBest: { score: number; total: number } | null };
}) {
  if (summary.quizzes === 0) return null;
  return (
    <p className="muted" data-testid="quiz-results">
      {`Quizzes taken: ${summary.taken}/${summary.quizzes}${
        summary.examBest ? ` · exam best ${summary.examBest.score}/${summary.examBest.total}` : ''
      }`}
    </p>
  );
}

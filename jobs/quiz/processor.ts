import { UnrecoverableError, type Job } from 'bullmq';
import {
  getQuizJobContext,
  markQuizRunning,
  markQuizWaiting,
  recordQuizFailure,
  storeQuizQuestions,
} from '~/models/quizzes.server';
import { quizPassages } from '~/services/material/lesson-passages.server';
import { generateQuiz } from '~/services/vendors/quiz-questions.server';
import { publishChange } from '~/utils/changes.server';
import { log } from '~/utils/logger.server';
import { recordWritten } from '~/utils/metrics.server';
import { errorMessage, reportProgress, waitOutRateLimit } from '~/queues/retry.server';
import { describeAiFailure } from '~/services/vendors/ai.server';
import { quizQueue } from '~/queues/quiz.server';

/**
 * Writes one quiz's questions and only that quiz's row. Safe to run twice: questions already
 * stored are never replaced (a member may be answering them), and a job whose course was
 * deleted fails for good instead of retrying. An unusable answer from the model fails the try,
 * so the job retries with the shared backoff until a valid quiz arrives.
 */
export async function processQuiz(job: Job, token?: string) {
  const { quizId, courseId } = quizQueue.payload.parse(job.data);
  const context = await getQuizJobContext(quizId);
  if (!context) throw new UnrecoverableError(`Quiz ${quizId} of course ${courseId} was deleted`);
  const { quiz, course, lessons } = context;
  if (quiz.questions) return { quizId, skipped: true };

  const changed = () => publishChange(`course:${courseId}`);
  await markQuizRunning(quizId, job.attemptsMade);
  try {
    const questions = await generateQuiz({
      mainTopic: course.mainTopic,
      topic: quiz.kind === 'topic' ? quiz.title : undefined,
      lessonTitles: lessons.map((lesson) => lesson.title),
      // A course from the member's material: the questions ask about what it says.
      passages: await quizPassages(course.id, lessons),
      questionCount: quiz.questionCount,
      language: course.language,
    });
    if (await storeQuizQuestions(quizId, questions)) {
      log.info('quiz.stored', { jobId: job.id, quizId, courseId });
      recordWritten('quiz');
    }
    changed();
    await reportProgress(job, 100);
    return { quizId };
  } catch (error) {
    await waitOutRateLimit(job, token, error, describeAiFailure(error), async () => {
      await markQuizWaiting(quizId, job.attemptsMade);
      changed();
    });
    const failures = job.attemptsMade + 1;
    await recordQuizFailure(quizId, failures, errorMessage(error));
    log.warn('quiz.try_failed', { jobId: job.id, quizId, failures, error: errorMessage(error) });
    throw error;
  }
}

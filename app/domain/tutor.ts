import { planName, type PlanId } from './plans';

/**
 * The tutor's rules, in one place for the panel and the server. Browser-safe: no server imports.
 * Each question also counts as one vendor call against the member's hourly AI allowance.
 */
export const MAX_QUESTION_LENGTH = 1000;

export const EMPTY_QUESTION_MESSAGE = 'Please type a question for the tutor.';
export const QUESTION_TOO_LONG_MESSAGE = `Your question is too long: please keep it under ${MAX_QUESTION_LENGTH} characters.`;
export const TUTOR_NOT_READY_MESSAGE = 'The tutor can help once this lesson is written.';
export const TUTOR_FAILED_MESSAGE = 'The tutor could not answer just now. Please ask again.';
export const TUTOR_BUSY_MESSAGE = 'Please wait for the tutor to finish the answer it is writing.';
/** The hourly AI allowance, used up (course generation and the /api share it). */
export const TUTOR_ALLOWANCE_MESSAGE =
  'You have used your AI allowance for this hour. Please ask the tutor again later.';

const hours = (seconds: number) => {
  const n = Math.max(1, Math.ceil(seconds / 3600));
  return `${n} hour${n === 1 ? '' : 's'}`;
};

/** `perDay`: the plan's `tutorQuestionsPerDay`, as the operator set it. */
export function tutorDailyCapMessage(
  plan: PlanId,
  perDay: number,
  retryAfterSeconds: number,
): string {
  return `You have asked the tutor ${perDay} questions today, the most the ${planName(
    plan,
  )} allows. Please ask again in ${hours(retryAfterSeconds)}.`;
}

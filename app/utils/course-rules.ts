import { PLAN_DEFINITIONS, PLAN_LIST } from '~/models/plans';

/** The spec's course-creation rules, shared by the /create page and the server. */
export const PAID_ONLY_MESSAGE = 'For paid members only';
export const MAX_SUBTOPICS_MESSAGE = 'You can only add 5 sub topics';
/** The topic counts /create offers: every count some plan allows (5 and 10), smallest first. */
export const TOPIC_COUNT_CHOICES: readonly number[] = [
  ...new Set(PLAN_LIST.flatMap((plan) => plan.limits.topicCounts)),
].sort((a, b) => a - b);
export const FREE_TOPIC_COUNT = PLAN_DEFINITIONS.free.limits.topicCounts[0]!;
export const MAX_MEMBER_SUBTOPICS = 5;
export const COURSE_TYPE_LABELS = {
  text: 'Theory & Image Course',
  video: 'Video & Theory Course',
} as const;

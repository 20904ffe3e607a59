/** The spec's course-creation rules, shared by the /create page and the server. */
export const PAID_ONLY_MESSAGE = 'For paid members only';
export const MAX_SUBTOPICS_MESSAGE = 'You can only add 5 sub topics';
export const FREE_TOPIC_COUNT = 5;
export const MAX_MEMBER_SUBTOPICS = 5;
export const COURSE_TYPE_LABELS = {
  text: 'Theory & Image Course',
  video: 'Video & Theory Course',
} as const;

/**
 * What a member may store as lesson text through the API: enough for any real lesson (a long
 * generated one is ~10,000 characters), small enough that reading and writing a course never
 * holds the server for long.
 */
export const MAX_LESSON_TEXT_CHARS = 100_000;
export const MAX_COURSE_TEXT_CHARS = 1_000_000;
/**
 * Whole courses travel as JSON to /api/course and /api/update, lesson texts included: 8 MB
 * carries MAX_COURSE_TEXT_CHARS even JSON-escaped, and keeps parsing a body on the request
 * thread short.
 */
export const MAX_COURSE_BODY_BYTES = 8 * 1024 * 1024;

export const LESSON_TOO_LONG_MESSAGE = `A lesson's text can be at most ${MAX_LESSON_TEXT_CHARS.toLocaleString('en-US')} characters`;
export const COURSE_TOO_LARGE_MESSAGE = `A course's lesson text can be at most ${MAX_COURSE_TEXT_CHARS.toLocaleString('en-US')} characters in all`;

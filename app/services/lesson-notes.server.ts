import { fail, ok, type Result } from '~/domain/result';
import { MAX_NOTE_CHARS, NOTE_NOT_TEXT_MESSAGE, NOTE_TOO_LONG_MESSAGE } from '~/domain/notes';
import { courseOutline } from '~/models/courses.server';
import type { Lesson } from '~/models/lessons.server';
import {
  getLessonNote,
  notesForCourse,
  saveLessonNote,
  type LessonNote,
} from '~/models/lesson-notes.server';
import { markdownToSafeHtml } from '~/utils/markdown.server';
import { hit, tooManyRequestsFailure, type RateLimit } from '~/utils/rate-limit.server';
import { cleanText } from '~/utils/validation.server';

/**
 * Saves as the member types arrive every 800 ms at most per box; this stops a script from
 * turning the notes route into a write loop, far above what typing in two tabs needs.
 */
const NOTE_SAVES: RateLimit = { name: 'notes:member', max: 600, windowSeconds: 10 * 60 };

const noteText = cleanText({ label: 'The note' });

export async function readLessonNote(userId: string, lessonId: number): Promise<LessonNote> {
  return getLessonNote(userId, lessonId);
}

/** The member's note on their own lesson (the route has checked the lesson is theirs). */
export async function writeLessonNote(
  userId: string,
  lesson: Pick<Lesson, 'id'>,
  raw: unknown,
): Promise<Result<LessonNote>> {
  if (typeof raw !== 'string') return fail(NOTE_NOT_TEXT_MESSAGE, 400);
  // Measured before anything else is done with it; line endings as the browser's textarea counts.
  const body = raw.replace(/\r\n?/g, '\n');
  if (body.length > MAX_NOTE_CHARS) return fail(NOTE_TOO_LONG_MESSAGE, 413);
  const cleaned = noteText.safeParse(body);
  if (!cleaned.success) return fail(cleaned.error.issues[0]?.message ?? NOTE_NOT_TEXT_MESSAGE, 400);
  const allowed = await hit(NOTE_SAVES, userId);
  if (!allowed.allowed) return tooManyRequestsFailure(allowed);
  // An all-blank note is no note: the notes view and the export skip it.
  return ok(await saveLessonNote(userId, lesson.id, cleaned.data.trim() ? cleaned.data : ''));
}

export interface CourseNotesTopic {
  id: number;
  title: string;
  lessons: { id: number; title: string; html: string }[];
}

/** The course's notes by topic, each rendered from Markdown to sanitized HTML; topics without notes left out. */
export async function courseNotesByTopic(
  userId: string,
  courseId: string,
): Promise<CourseNotesTopic[]> {
  const bodies = new Map((await notesForCourse(userId, courseId)).map((n) => [n.lessonId, n.body]));
  return (await courseOutline(courseId))
    .map((topic) => ({
      id: topic.id,
      title: topic.title,
      lessons: topic.lessons.flatMap((lesson) => {
        const body = bodies.get(lesson.id);
        return body
          ? [
              {
                id: lesson.id,
                title: lesson.title,
                html: markdownToSafeHtml(body, { lineBreaks: true }),
              },
            ]
          : [];
      }),
    }))
    .filter((topic) => topic.lessons.length > 0);
}

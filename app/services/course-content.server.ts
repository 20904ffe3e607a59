import { z } from 'zod';
import {
  COURSE_TOO_LARGE_MESSAGE,
  LESSON_TOO_LONG_MESSAGE,
  MAX_COURSE_TEXT_CHARS,
  MAX_LESSON_TEXT_CHARS,
} from '~/domain/content-limits';
import type { Outline } from '~/domain/outline';
import { fail, ok, type Failure, type Result } from '~/domain/result';
import { hit, tooManyRequestsFailure, type RateLimit } from '~/utils/rate-limit.server';
import { MAX_LESSONS_PER_TOPIC, MAX_TOPICS } from '~/domain/plans';
import { getCompletion } from '~/models/completions.server';
import {
  contentRowsOfCourses,
  courseOutline,
  type Course,
  type NewTopic,
} from '~/models/courses.server';
import { updateLessonsFromClient } from '~/models/lessons.server';
import { sanitizeHtmlOffThread } from '~/utils/sanitize-html-pool.server';
import { cleanText } from '~/utils/validation.server';
import { keepCourseDecksWriting } from './flashcards.server';

/**
 * The API's course JSON is an API format only: an object keyed
 * by the lower-cased main topic holding the topics, each with sub-topics
 * { title, theory, youtube, image, done }. Storage is one row per lesson.
 */
interface ContentLesson {
  title: string;
  theory: string;
  youtube: string;
  image: string;
  done: boolean;
}
export interface ContentTopic {
  title: string;
  subtopics: ContentLesson[];
}
export type CourseContent = Record<string, ContentTopic[]>;

const safeImage = (url: string) => (/^(https:\/\/|http:\/\/|\/(?!\/))\S+$/.test(url) ? url : '');
const safeVideoId = (id: string) => (/^[\w-]{6,20}$/.test(id) ? id : '');

const lessonSchema = z.object({
  title: z.string().trim().min(1).max(200).pipe(cleanText()),
  theory: z.string().optional().default(''),
  youtube: z.string().trim().max(200).optional().default(''),
  image: z.string().trim().max(2000).optional().default(''),
  done: z
    .union([z.boolean(), z.enum(['true', 'false']).transform((v) => v === 'true')])
    .optional()
    .default(false),
});
const topicsSchema = z
  .array(
    z.object({
      title: z.string().trim().min(1).max(200).pipe(cleanText()),
      subtopics: z.array(lessonSchema).min(1).max(MAX_LESSONS_PER_TOPIC),
    }),
  )
  .min(1)
  .max(MAX_TOPICS);

export const CONTENT_MESSAGE = 'The course content is not in the expected format';

/** The lesson texts of raw content, measured before anything heavier is done with them. */
function lessonTextLengths(topics: unknown): number[] {
  if (!Array.isArray(topics)) return [];
  return topics.flatMap((topic: { subtopics?: unknown }) =>
    Array.isArray(topic?.subtopics)
      ? topic.subtopics.map((lesson: { theory?: unknown }) =>
          typeof lesson?.theory === 'string' ? lesson.theory.length : 0,
        )
      : [],
  );
}

/**
 * Reads `content` (an object, or its JSON text) into topics, lesson HTML sanitized once here,
 * on the way in (long lessons on a worker thread). Too much text is a 413 with the limit; any
 * other malformation a 400.
 */
export async function parseContent(value: unknown): Promise<Result<ContentTopic[]>> {
  let content = value;
  if (typeof content === 'string') {
    try {
      content = JSON.parse(content);
    } catch {
      return fail(CONTENT_MESSAGE, 400);
    }
  }
  if (!content || typeof content !== 'object' || Array.isArray(content))
    return fail(CONTENT_MESSAGE, 400);
  const entries = Object.values(content as Record<string, unknown>);
  if (entries.length !== 1) return fail(CONTENT_MESSAGE, 400);
  const lengths = lessonTextLengths(entries[0]);
  if (lengths.some((length) => length > MAX_LESSON_TEXT_CHARS))
    return fail(LESSON_TOO_LONG_MESSAGE, 413);
  if (lengths.reduce((sum, length) => sum + length, 0) > MAX_COURSE_TEXT_CHARS)
    return fail(COURSE_TOO_LARGE_MESSAGE, 413);
  const parsed = topicsSchema.safeParse(entries[0]);
  if (!parsed.success) return fail(CONTENT_MESSAGE, 400);
  return ok(
    await Promise.all(
      parsed.data.map(async (topic) => ({
        title: topic.title,
        subtopics: await Promise.all(
          topic.subtopics.map(async (lesson) => ({
            title: lesson.title,
            theory: lesson.theory.trim() ? await sanitizeHtmlOffThread(lesson.theory) : '',
            youtube: safeVideoId(lesson.youtube),
            image: safeImage(lesson.image),
            done: lesson.done,
          })),
        ),
      })),
    ),
  );
}

/**
 * An outline (topics and lesson titles, keyed by the main topic) as the spec's course content
 * (where lessons are `subtopics`): every lesson not written yet, so a client fills it in or saves
 * it as it is.
 */
export function outlineAsContent(outline: Record<string, Outline>): CourseContent {
  return Object.fromEntries(
    Object.entries(outline).map(([key, topics]) => [
      key,
      topics.map((topic) => ({
        title: topic.title,
        subtopics: topic.lessons.map((lesson) => ({
          title: lesson.title,
          theory: '',
          youtube: '',
          image: '',
          done: false,
        })),
      })),
    ]),
  );
}

/** Parsed content as new rows. */
export function contentToTopics(topics: ContentTopic[]): NewTopic[] {
  return topics.map((topic) => ({
    title: topic.title,
    lessons: topic.subtopics.map((lesson) => ({
      title: lesson.title,
      theory: lesson.theory || null,
      imageUrl: lesson.image || null,
      youtubeId: lesson.youtube || null,
      done: lesson.done,
    })),
  }));
}

/** Courses' rows in the API's JSON shape, by course id (two reads for any number of courses). */
export async function courseContents(
  list: readonly Pick<Course, 'id' | 'mainTopic'>[],
): Promise<Map<string, CourseContent>> {
  const rows = await contentRowsOfCourses(list.map((course) => course.id));
  const lessonsByTopic = new Map<number, ContentLesson[]>();
  for (const lesson of rows.lessons) {
    const shown: ContentLesson = {
      title: lesson.title,
      // Sanitized when stored (every writer does), so reading is only reading.
      theory: lesson.theory ?? '',
      youtube: lesson.youtubeId ?? '',
      image: lesson.imageUrl ?? '',
      done: lesson.done,
    };
    const topicLessons = lessonsByTopic.get(lesson.topicId);
    if (topicLessons) topicLessons.push(shown);
    else lessonsByTopic.set(lesson.topicId, [shown]);
  }
  const topicsByCourse = new Map<string, ContentTopic[]>();
  for (const topic of rows.topics) {
    const shown = { title: topic.title, subtopics: lessonsByTopic.get(topic.id) ?? [] };
    const courseTopics = topicsByCourse.get(topic.courseId);
    if (courseTopics) courseTopics.push(shown);
    else topicsByCourse.set(topic.courseId, [shown]);
  }
  return new Map(
    list.map((course) => [
      course.id,
      { [course.mainTopic.toLowerCase()]: topicsByCourse.get(course.id) ?? [] },
    ]),
  );
}

/** One course's rows in the API's JSON shape. */
export async function courseContent(
  course: Pick<Course, 'id' | 'mainTopic'>,
): Promise<CourseContent> {
  return (await courseContents([course])).get(course.id)!;
}

/**
 * /api/update: the learner's `done` marks and any content given, lesson by
 * lesson. The content must have the course's shape (same topics and lesson
 * counts); returns false otherwise and changes nothing. Lessons that get their first text this
 * way owe their flashcards, whose jobs start here.
 */
export async function applyContentUpdate(
  courseId: string,
  topics: ContentTopic[],
): Promise<boolean> {
  const outline = await courseOutline(courseId);
  const sameShape =
    outline.length === topics.length &&
    outline.every((topic, i) => topic.lessons.length === topics[i]!.subtopics.length);
  if (!sameShape) return false;
  await updateLessonsFromClient(
    outline.flatMap((topic, i) =>
      topic.lessons.map((lesson, j) => {
        const given = topics[i]!.subtopics[j]!;
        return {
          lessonId: lesson.id,
          done: given.done,
          theory: given.theory || undefined,
          imageUrl: given.image || undefined,
          youtubeId: given.youtube || undefined,
        };
      }),
    ),
  );
  await keepCourseDecksWriting(courseId);
  return true;
}

type RecordSource = Pick<
  Course,
  'id' | 'userId' | 'mainTopic' | 'type' | 'photoUrl' | 'createdAt' | 'language'
> & { completedAt?: Date | null };

/**
 * A course as the spec's course record; `end` is the completion date, null until the course is
 * finished. With its content (read with courseContents), `content` is that content as JSON text,
 * the spec's "content (JSON text)".
 */
export async function courseRecord(course: RecordSource): Promise<CourseRecordFields>;
export async function courseRecord(
  course: RecordSource,
  content: CourseContent,
): Promise<CourseRecordFields & { content: string }>;
export async function courseRecord(course: RecordSource, content?: CourseContent) {
  const completedAt =
    course.completedAt !== undefined
      ? course.completedAt
      : ((await getCompletion(course.id))?.completedAt ?? null);
  const record: CourseRecordFields = {
    _id: course.id,
    user: course.userId,
    mainTopic: course.mainTopic,
    type: course.type,
    photo: course.photoUrl ?? '',
    date: course.createdAt.toISOString(),
    completed: completedAt !== null,
    end: completedAt ? completedAt.toISOString() : null,
    language: course.language,
  };
  return content ? { ...record, content: JSON.stringify(content) } : record;
}

export interface CourseRecordFields {
  _id: string;
  user: string;
  mainTopic: string;
  type: Course['type'];
  photo: string;
  date: string;
  completed: boolean;
  end: string | null;
  language: string;
}

/** Content writes per member (POST /api/course, /api/update): each may parse a megabyte. */
const CONTENT_WRITES: RateLimit = {
  name: 'content-write:member',
  max: 120,
  windowSeconds: 10 * 60,
};

/** Null while the member may write content, else the 429 failure with its wait. */
export async function contentWriteRefusal(userId: string): Promise<Failure | null> {
  const result = await hit(CONTENT_WRITES, userId);
  return result.allowed ? null : tooManyRequestsFailure(result);
}

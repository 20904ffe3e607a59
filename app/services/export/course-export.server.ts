import fs from 'node:fs/promises';
import path from 'node:path';
import { languageOf, type Language } from '~/domain/languages';
import { courseOutline, getCourseForUser } from '~/models/courses.server';
import { notesForCourse } from '~/models/lesson-notes.server';
import { listLessonsOfCourse, parseCredit, type LessonCredit } from '~/models/lessons.server';
import { brand } from '~/services/brand.server';
import { env } from '~/utils/env.server';
import { htmlToBlocks, type Block } from './html-blocks.server';
import { projectPath } from '~/utils/project-files.server';

/**
 * What a course export is made of, read once from the database and shared by the Markdown
 * and PDF writers: the course, its topics and lessons in order, each written lesson as blocks.
 */
export interface ExportLesson {
  id: number;
  title: string;
  /** Null while the lesson is not written yet. */
  blocks: Block[] | null;
  image: { url: string; credit: LessonCredit | null } | null;
  youtubeId: string | null;
  note: string | null;
}

export interface ExportCourse {
  id: string;
  title: string;
  /** The brand's name (ADR 0062), in each file's footer or metadata. */
  siteName: string;
  language: Language;
  topics: { id: number; title: string; lessons: ExportLesson[] }[];
}

/** The member's own course, ready to export; undefined for anyone else's (the route's 404). */
export async function exportableCourse(
  userId: string,
  courseId: string,
  options: { notes: boolean },
): Promise<ExportCourse | undefined> {
  const course = await getCourseForUser(courseId, userId);
  if (!course) return undefined;
  const rows = new Map((await listLessonsOfCourse(course.id)).map((lesson) => [lesson.id, lesson]));
  const notes = new Map(
    options.notes
      ? (await notesForCourse(userId, course.id)).map((note) => [note.lessonId, note.body])
      : [],
  );
  const [outline, { name: siteName }] = await Promise.all([courseOutline(course.id), brand()]);
  return {
    id: course.id,
    title: course.mainTopic,
    siteName,
    language: languageOf(course.language),
    topics: outline.map((topic) => ({
      id: topic.id,
      title: topic.title,
      lessons: topic.lessons.map((summary) => {
        const row = rows.get(summary.id);
        const written = row?.theory && summary.state === 'done' ? row.theory : null;
        return {
          id: summary.id,
          title: summary.title,
          blocks: written ? htmlToBlocks(written) : null,
          image: row?.imageUrl ? { url: row.imageUrl, credit: parseCredit(row.imageCredit) } : null,
          youtubeId: row?.youtubeId ?? null,
          note: notes.get(summary.id) ?? null,
        };
      }),
    })),
  };
}

/** A file name from the course title: ASCII letters and digits, else "course". */
export function exportSlug(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
    .replace(/-+$/, '');
  return slug || 'course';
}

/** Every image URL the course shows: each lesson's photo and the images inside lessons. */
export function imageUrlsOf(course: ExportCourse): string[] {
  const urls = course.topics.flatMap((topic) =>
    topic.lessons.flatMap((lesson) => [
      ...(lesson.image ? [lesson.image.url] : []),
      ...(lesson.blocks ?? []).flatMap((block) => (block.kind === 'image' ? [block.src] : [])),
    ]),
  );
  return [...new Set(urls)];
}

/** An image URL as a reader outside the app can open it (demo images are site-relative). */
export function absoluteUrl(url: string, origin: string): string {
  try {
    return new URL(url, origin).href;
  } catch {
    return url;
  }
}

const PUBLIC_IMAGES = projectPath('public', 'images');
const IMAGE_CONCURRENCY = 4;
const MAX_IMAGE_BYTES = 5 * 1024 * 1024;

/** PNG or JPEG: the formats PDFKit embeds. Anything else is left as a caption link. */
function embeddable(bytes: Buffer): boolean {
  const png = bytes.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  const jpeg = bytes[0] === 0xff && bytes[1] === 0xd8;
  return png || jpeg;
}

/**
 * One image's bytes, or null. Only site-relative images under public/images (demo mode) and
 * https images from the allowed hosts are fetched, so an export cannot be pointed at an
 * internal address; each fetch is bounded in time and size.
 */
async function loadImage(url: string): Promise<Buffer | null> {
  try {
    if (url.startsWith('/') && !url.startsWith('//')) {
      const file = path.resolve(
        projectPath('public'),
        `.${decodeURIComponent(url.split(/[?#]/)[0]!)}`,
      );
      if (!file.startsWith(PUBLIC_IMAGES + path.sep)) return null;
      const bytes = await fs.readFile(file);
      return embeddable(bytes) ? bytes : null;
    }
    const parsed = new URL(url);
    const allowed = env().EXPORT_IMAGE_HOSTS.includes(parsed.hostname.toLowerCase());
    const local = parsed.protocol === 'http:' && env().NODE_ENV !== 'production';
    if (!allowed || (parsed.protocol !== 'https:' && !local)) return null;
    const response = await fetch(parsed, {
      redirect: 'error',
      signal: AbortSignal.timeout(env().EXPORT_IMAGE_TIMEOUT_MS),
    });
    if (!response.ok) return null;
    const length = Number(response.headers.get('content-length') ?? 0);
    if (length > MAX_IMAGE_BYTES) return null;
    const bytes = Buffer.from(await response.arrayBuffer());
    return bytes.length <= MAX_IMAGE_BYTES && embeddable(bytes) ? bytes : null;
  } catch {
    // A slow, missing or refused image becomes a caption link; the export still succeeds.
    return null;
  }
}

/** The course's images, a few at a time; a failed one maps to null. */
export async function loadImages(urls: string[]): Promise<Map<string, Buffer | null>> {
  const result = new Map<string, Buffer | null>();
  let next = 0;
  async function lane() {
    while (next < urls.length) {
      const url = urls[next++]!;
      result.set(url, await loadImage(url));
    }
  }
  await Promise.all(Array.from({ length: Math.min(IMAGE_CONCURRENCY, urls.length) }, lane));
  return result;
}

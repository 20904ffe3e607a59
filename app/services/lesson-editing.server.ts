import { z } from 'zod';
import {
  LESSON_BUSY_MESSAGE,
  LESSON_EMPTY_MESSAGE,
  LESSON_MARKDOWN_TOO_LONG_MESSAGE,
  LESSON_TITLE_MESSAGE,
  MAX_LESSON_MARKDOWN_CHARS,
  MAX_LESSON_TITLE_CHARS,
  NO_SUCH_VERSION_MESSAGE,
  type LessonVersionSummary,
} from '~/domain/lesson-editing';
import { fail, ok, type Result } from '~/domain/result';
import { getLesson, type Lesson } from '~/models/lessons.server';
import {
  currentLessonMarkdown,
  getLessonVersion,
  listLessonVersions,
  replaceLessonText,
  type LessonVersion,
  type ReplaceOutcome,
} from '~/models/lesson-versions.server';
import { getRegeneration } from '~/models/lesson-regenerations.server';
import { lessonHtmlAsMarkdown } from '~/services/export/markdown.server';
import { contentWriteRefusal } from '~/services/course-content.server';
import { publishChange } from '~/utils/changes.server';
import { markdownToSafeHtml } from '~/utils/markdown.server';
import { cleanText, parseWith } from '~/utils/validation.server';

/**
 * The author's last word (issue 39, ADR 0059): a written lesson's title and text edited as
 * Markdown, turned into what readers see by the path generated lessons take
 * (`markdownToSafeHtml`), with /api/update's limits; and the lesson's kept versions, any of which
 * can be put back as a new version.
 */

export interface LessonText {
  lessonId: number;
  courseId: string;
  title: string;
  markdown: string;
  /** Sanitized HTML: what readers see. */
  html: string;
  /** True while the lesson is being written or re-written: it cannot be edited then. */
  busy: boolean;
}

/** Whether the lesson can be edited now; the write checks again (`replaceLessonText`). */
async function isBusy(lesson: Lesson): Promise<boolean> {
  if (lesson.state !== 'done' || lesson.theory === null) return true;
  return (await getRegeneration(lesson.id))?.state === 'running';
}

export async function lessonText(lesson: Lesson): Promise<LessonText> {
  const html = lesson.theory ?? '';
  return {
    lessonId: lesson.id,
    courseId: lesson.courseId,
    title: lesson.title,
    markdown: (await currentLessonMarkdown(lesson.id, html)) ?? lessonHtmlAsMarkdown(html),
    html,
    busy: await isBusy(lesson),
  };
}

const editSchema = z.object({
  title: z
    .string({ error: LESSON_TITLE_MESSAGE })
    .trim()
    .min(1, LESSON_TITLE_MESSAGE)
    .max(MAX_LESSON_TITLE_CHARS, LESSON_TITLE_MESSAGE)
    .pipe(cleanText({ label: 'The title', singleLine: true })),
  markdown: z
    .string({ error: LESSON_EMPTY_MESSAGE })
    .max(MAX_LESSON_MARKDOWN_CHARS, LESSON_MARKDOWN_TOO_LONG_MESSAGE)
    .pipe(cleanText({ label: 'The text' }))
    .transform((text) => text.replace(/\r\n?/g, '\n')),
});

/** What readers would see for this Markdown (the editor's preview). */
export function previewLessonMarkdown(markdown: unknown): Result<string> {
  if (typeof markdown !== 'string') return fail(LESSON_EMPTY_MESSAGE, 400);
  if (markdown.length > MAX_LESSON_MARKDOWN_CHARS)
    return fail(LESSON_MARKDOWN_TOO_LONG_MESSAGE, 413);
  return ok(markdownToSafeHtml(markdown));
}

function outcome(replaced: ReplaceOutcome): Result<null> {
  if (replaced === 'busy') return fail(LESSON_BUSY_MESSAGE, 409);
  if (replaced === 'missing') return fail('Not Found', 404);
  return ok(null);
}

/**
 * Saves the author's title and Markdown as the lesson's new version; counted with /api/update's
 * content writes (`contentWriteRefusal`), as each may render a long text.
 */
export async function editLesson(
  userId: string,
  lesson: Lesson,
  body: unknown,
): Promise<Result<LessonText>> {
  const refused = await contentWriteRefusal(userId);
  if (refused) return refused;
  if (
    body &&
    typeof body === 'object' &&
    typeof (body as { markdown?: unknown }).markdown === 'string' &&
    (body as { markdown: string }).markdown.length > MAX_LESSON_MARKDOWN_CHARS
  )
    return fail(LESSON_MARKDOWN_TOO_LONG_MESSAGE, 413);
  const parsed = parseWith(editSchema, body);
  if (!parsed.ok) return parsed;
  const { title, markdown } = parsed.value;
  const html = markdownToSafeHtml(markdown);
  if (!html.replace(/<[^>]*>/g, '').trim() && !/<img\b/.test(html))
    return fail(LESSON_EMPTY_MESSAGE, 400);
  if (await isBusy(lesson)) return fail(LESSON_BUSY_MESSAGE, 409);
  const saved = outcome(
    await replaceLessonText(lesson.id, { kind: 'edited', title, theory: html, markdown }),
  );
  if (!saved.ok) return saved;
  publishChange(`course:${lesson.courseId}`);
  return ok(await lessonText((await getLesson(lesson.id))!));
}

function summary(version: LessonVersion, current: boolean): LessonVersionSummary {
  return {
    id: version.id,
    kind: version.kind,
    instruction: version.instruction,
    restoredFrom: version.restoredFrom,
    title: version.title,
    createdAt: version.createdAt.toISOString(),
    current,
  };
}

/**
 * The lesson's kept versions, newest first. A lesson never replaced has none kept yet: its
 * current text is listed as the version the AI wrote.
 */
export async function lessonHistory(lesson: Lesson): Promise<LessonVersionSummary[]> {
  const versions = await listLessonVersions(lesson.id);
  if (versions.length === 0)
    return lesson.theory === null
      ? []
      : [
          {
            id: 0,
            kind: 'generated',
            instruction: '',
            restoredFrom: null,
            title: lesson.title,
            createdAt: (lesson.generatedAt ?? new Date()).toISOString(),
            current: true,
          },
        ];
  return versions.map((version, i) => summary(version, i === 0));
}

export interface LessonVersionText extends LessonVersionSummary {
  html: string;
  markdown: string;
}

/** One kept version with its text. */
export async function lessonVersionText(
  lesson: Lesson,
  versionId: number,
): Promise<Result<LessonVersionText>> {
  const history = await lessonHistory(lesson);
  const listed = history.find((version) => version.id === versionId);
  if (!listed) return fail(NO_SUCH_VERSION_MESSAGE, 404);
  if (versionId === 0) {
    const text = await lessonText(lesson);
    return ok({ ...listed, html: text.html, markdown: text.markdown });
  }
  const version = (await getLessonVersion(lesson.id, versionId))!;
  return ok({
    ...listed,
    html: version.theory,
    markdown: version.markdown ?? lessonHtmlAsMarkdown(version.theory),
  });
}

/** Puts a kept version back, as a new version: nothing is lost. */
export async function restoreLessonVersion(
  lesson: Lesson,
  versionId: number,
): Promise<Result<LessonText>> {
  const version = versionId > 0 ? await getLessonVersion(lesson.id, versionId) : undefined;
  if (!version) return fail(NO_SUCH_VERSION_MESSAGE, 404);
  if (await isBusy(lesson)) return fail(LESSON_BUSY_MESSAGE, 409);
  const saved = outcome(
    await replaceLessonText(lesson.id, {
      kind: 'restored',
      title: version.title,
      theory: version.theory,
      markdown: version.markdown,
      restoredFrom: version.id,
    }),
  );
  if (!saved.ok) return saved;
  publishChange(`course:${lesson.courseId}`);
  return ok(await lessonText((await getLesson(lesson.id))!));
}

import { z } from 'zod';
import { LESSON_VERSION_KINDS } from '../../../db/enums';
import { json, operation } from './operation.server';
import { isoDate, success } from './shapes.server';

/** A written lesson's text and its kept versions (issue 39, ADR 0059). */
const lessonParams = z.object({
  lessonId: z.string().describe('The lesson’s id (the `lesson` of /course/{courseId}?lesson=)'),
});

const LessonText = z.object({
  lessonId: z.number().int(),
  courseId: z.string(),
  title: z.string(),
  markdown: z
    .string()
    .describe('The text as Markdown: as typed when last edited, else converted from the HTML'),
  html: z.string().describe('What readers see: sanitized HTML'),
  busy: z.boolean().describe('Being written or re-written: edits are refused (409) until done'),
});

const Version = z.object({
  id: z
    .number()
    .int()
    .describe('0 for a lesson never changed: its text as the AI wrote it, not kept apart yet'),
  kind: z.enum(LESSON_VERSION_KINDS),
  instruction: z.string().describe('The regeneration’s instruction, else empty'),
  restoredFrom: z.number().int().nullable().describe('The version a restore copied'),
  title: z.string(),
  createdAt: isoDate,
  current: z.boolean(),
});

export const lessonOperations = {
  lesson: operation({
    method: 'GET',
    path: '/api/lesson/{lessonId}',
    file: 'api.lesson.$lessonId.ts',
    summary: 'A lesson’s text and title',
    description: 'Another member’s lesson is a 404.',
    tag: 'Courses',
    audience: 'member',
    errors: [404],
    params: lessonParams,
    responses: { 200: json('The lesson', z.object({ success, lesson: LessonText })) },
  }),
  editLesson: operation({
    method: 'POST',
    path: '/api/lesson/{lessonId}',
    file: 'api.lesson.$lessonId.ts',
    summary: 'Edit a written lesson',
    description:
      'Replaces the title and text (Markdown, rendered and sanitized as generated lessons are; 100,000 characters at most, 413 beyond) and keeps the result as a new version. A lesson being written or re-written is a 409. Another member’s lesson is a 404.',
    tag: 'Courses',
    audience: 'member',
    errors: [404, 409, 413],
    params: lessonParams,
    body: z.object({
      title: z.string().describe('At most 200 characters'),
      markdown: z.string().describe('The lesson’s text in Markdown'),
    }),
    responses: { 200: json('Saved', z.object({ success, lesson: LessonText })) },
  }),
  lessonVersions: operation({
    method: 'GET',
    path: '/api/lesson/{lessonId}/versions',
    file: 'api.lesson.$lessonId.versions.ts',
    summary: 'A lesson’s kept versions',
    description:
      'Newest first, the last 50 at most: how each came to be (generated, regenerated with its instruction, edited, restored) and when. Another member’s lesson is a 404.',
    tag: 'Courses',
    audience: 'member',
    errors: [404],
    params: lessonParams,
    responses: { 200: json('The versions', z.object({ success, versions: z.array(Version) })) },
  }),
  restoreLessonVersion: operation({
    method: 'POST',
    path: '/api/lesson/{lessonId}/versions',
    file: 'api.lesson.$lessonId.versions.ts',
    summary: 'Restore a kept version',
    description:
      'The version `versionId` becomes the lesson’s text and title again, kept as a new version (nothing is lost). An unknown version is a 404; a lesson being written or re-written a 409.',
    tag: 'Courses',
    audience: 'member',
    errors: [404, 409],
    params: lessonParams,
    body: z.object({ versionId: z.number().int().positive() }),
    responses: { 200: json('Restored', z.object({ success, lesson: LessonText })) },
  }),
};

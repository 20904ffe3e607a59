import { z } from 'zod';
import { COURSE_TYPES, GENERATION_STATES, MATERIAL_KINDS } from '../../../db/enums';
import { rewriteInstruction } from '~/services/outline-authoring.server';
import { courseLanguage } from '~/utils/language.server';
import { REQUIRED_FIELDS_MESSAGE, requiredText } from '~/utils/validation.server';
import { json, operation, type ApiOperation } from './operation.server';
import { courseFields, ignored, isoDate, Message, success } from './shapes.server';

const CourseRecord = z
  .object({
    ...courseFields,
    content: z
      .string()
      .describe('The course content as JSON text (topics → subtopics), as the spec has it'),
  })
  .describe("The spec's course record");

/**
 * The outline an API client (or the /topics page's editor) sends, in the spec's words
 * (`subtopics` are the lessons; `outlineFromSpec` maps them): its shape only, the rule is
 * outlineEditRefusal.
 */
const editedOutlineSchema = z
  .array(
    z.object({
      title: z.string(),
      subtopics: z.array(z.object({ title: z.string() })).max(50),
    }),
  )
  .max(50);

/** An outline before its course is made, as /topics shows it (`outlineStatus`, ADR 0032). */
const OutlineSchema = z
  .object({
    id: z.string(),
    state: z
      .enum(GENERATION_STATES)
      .describe("'done' once written; 'queued' again while a rewrite is under way"),
    attempts: z.number().int().describe('Failed tries so far'),
    mainTopic: z.string(),
    courseType: z.enum(COURSE_TYPES),
    topics: z
      .array(
        z.object({
          title: z.string(),
          subtopics: z.array(z.object({ title: z.string() })),
        }),
      )
      .nullable()
      .describe('The topics and their lessons; null until written'),
    courseId: z.string().nullable().describe('The course made from it; null until then'),
    unusable: z
      .boolean()
      .describe("The AI's answers kept being unusable: change the title or give up"),
    language: z.string().describe('The language code it is written in'),
    revision: z.number().int().describe("The member's saved edits so far"),
    rewriting: z
      .string()
      .nullable()
      .describe('The instruction of the rewrite under way; null otherwise'),
    material: z
      .object({
        id: z.string(),
        name: z.string(),
        kind: z.enum(MATERIAL_KINDS),
        pageCount: z.number().int().nullable(),
        charCount: z.number().int(),
      })
      .nullable()
      .describe("The member's own material it is written from, if any"),
    version: z.string().describe('Changes whenever anything above does'),
  })
  .describe('An outline, before the course is made from it');

/**
 * What `type` may be sent as: the stored names, and the spec's course type names its clients send
 * (either wording of each). Case and surrounding spaces do not matter.
 */
const COURSE_TYPE_NAMES = {
  text: 'text',
  video: 'video',
  'text & image course': 'text',
  'theory & image course': 'text',
  'video & text course': 'video',
  'video & theory course': 'video',
} as const;

const courseType = z
  .preprocess(
    (value) => (typeof value === 'string' ? value.trim().toLowerCase() : value),
    z.enum(Object.keys(COURSE_TYPE_NAMES) as [keyof typeof COURSE_TYPE_NAMES], {
      error: REQUIRED_FIELDS_MESSAGE,
    }),
  )
  .transform((name) => COURSE_TYPE_NAMES[name]);

const outlineParams = z.object({
  outlineId: z.string().describe('The id in its /topics/{outlineId} address'),
});

/** Courses: the caller’s courses and outlines: list, save, progress, certificates. */
export const courseOperations = {
  courses: operation({
    method: 'GET',
    path: '/api/courses',
    file: 'api.courses.ts',
    summary: "The caller's courses",
    description:
      'Newest first, with their content. A page holds `limit` courses (default and most 100) or about 8 MB of content, whichever comes first; more follow through `Link: <…>; rel="next"` (also `X-Next-Cursor`, passed back as `cursor`). `userId`, when sent, must be the caller’s.',
    tag: 'Courses',
    audience: 'member',
    errors: [403],
    query: z.object({
      userId: z.string().optional(),
      limit: z.coerce.number().int().min(1).max(100).optional(),
      cursor: z.string().optional(),
    }),
    responses: {
      200: json('An array of course records', z.array(CourseRecord), {
        Link: { description: 'The next page, when there is one: `<url>; rel="next"`' },
        'X-Next-Cursor': { description: 'The cursor of the next page, when there is one' },
      }),
    },
  }),
  course: operation({
    method: 'GET',
    path: '/api/course',
    file: 'api.course.ts',
    summary: 'One of the caller’s courses',
    tag: 'Courses',
    audience: 'member',
    errors: [404],
    query: z.object({ courseId: z.string() }),
    responses: { 200: json('The course record', z.object({ success, course: CourseRecord })) },
  }),
  outline: operation({
    method: 'GET',
    path: '/api/outline/{outlineId}',
    file: 'api.outline.$outlineId.ts',
    summary: 'One of the caller’s outlines',
    description:
      'The outline made on /create, as its page shows it: poll until `state` is `done`. Another member’s outline is a 404.',
    tag: 'Courses',
    audience: 'member',
    errors: [404],
    params: outlineParams,
    responses: { 200: json('The outline', z.object({ success, outline: OutlineSchema })) },
  }),
  editOutline: operation({
    method: 'POST',
    path: '/api/outline/{outlineId}',
    file: 'api.outline.$outlineId.ts',
    summary: 'Edit, rewrite or generate from an outline',
    description:
      'Does what the /topics page does, in this order: saves `topics` (held to the plan’s limits: 403 beyond them, 400 for anything else wrong), asks for a rewrite with `instruction` (one call of the AI allowance: 429 once it is spent), and makes the course from the outline as it then stands (`generate: true`, answering `courseId`). An outline not written yet, being rewritten or already made into a course does not change (409). Another member’s outline is a 404.',
    tag: 'Courses',
    audience: 'member',
    idempotent: true,
    errors: [403, 404, 409, 422],
    limited: true,
    params: outlineParams,
    body: z
      .object({
        topics: editedOutlineSchema
          .optional()
          .describe('The edited outline: [{ title, subtopics: [{ title }] }]'),
        instruction: rewriteInstruction.optional().describe('How to rewrite it, in one line'),
        generate: z.boolean().optional().describe('Make the course from it'),
      })
      .refine(
        (body) => body.topics !== undefined || body.instruction !== undefined || body.generate,
        'Send topics, an instruction or generate: true',
      ),
    responses: {
      200: json(
        'Done: the outline as it now stands',
        z.object({
          success,
          outline: OutlineSchema,
          courseId: z.string().optional().describe('The course made, when `generate` was sent'),
        }),
      ),
    },
  }),
  createCourse: operation({
    method: 'POST',
    path: '/api/course',
    file: 'api.course.ts',
    summary: 'Save a course',
    description:
      'Stored for the caller (a `user` naming anyone else is refused). Lessons without theory are written in the background, one call of the AI allowance each; the card photo is found like on /create.',
    tag: 'Courses',
    audience: 'member',
    idempotent: true,
    errors: [403, 409, 422],
    limited: true,
    body: z.object({
      user: z.string().optional().describe("The caller's own id, when sent"),
      mainTopic: requiredText(120, { label: 'Main topic', singleLine: true }),
      type: courseType.describe(
        "'text' (theory and image) or 'video' (video and theory), or the spec's names of them: 'text & image course', 'video & text course'",
      ),
      content: z
        .unknown()
        .describe('The course content, as JSON text or an object (topics → subtopics)'),
      language: courseLanguage,
    }),
    responses: {
      200: json(
        'Saved',
        z.object({
          success,
          message: z.string(),
          courseId: z.string(),
          completed: z.boolean(),
        }),
      ),
    },
  }),
  update: operation({
    method: 'POST',
    path: '/api/update',
    file: 'api.update.ts',
    summary: 'Save progress and content of a course',
    tag: 'Courses',
    audience: 'member',
    errors: [404, 409],
    body: z.object({
      courseId: requiredText(64),
      content: z.unknown().describe('The course content, as JSON text or an object'),
    }),
    responses: { 200: json('Saved', Message) },
  }),
  finish: operation({
    method: 'POST',
    path: '/api/finish',
    file: 'api.finish.ts',
    summary: 'Finish a course',
    description: 'Only when every lesson is done; finishing again answers the first record.',
    tag: 'Courses',
    audience: 'member',
    errors: [404, 409],
    body: z.object({ courseId: requiredText(100) }),
    responses: {
      200: json('Finished', z.object({ success, certificateId: z.string(), completedAt: isoDate })),
    },
  }),
  deletecourse: operation({
    method: 'POST',
    path: '/api/deletecourse',
    file: 'api.deletecourse.ts',
    summary: 'Delete a course',
    description:
      'Deletes one of the caller’s courses and everything of it at once: topics, lessons, quizzes and attempts, flashcards and their reviews, notes, tutor conversations, its share link, its certificate and the document it was written from. A job of it still running writes nothing back. Another member’s course, or one already deleted, is a 404. A POST in the spec’s style, like `/api/finish` (ADR 0054).',
    tag: 'Courses',
    audience: 'member',
    errors: [404],
    body: z.object({ courseId: requiredText(100) }),
    responses: { 200: json('Deleted', Message) },
  }),
  sendcertificate: operation({
    method: 'POST',
    path: '/api/sendcertificate',
    file: 'api.sendcertificate.ts',
    summary: 'Email a certificate',
    description:
      'The certificate of the named course (else of the caller’s newest finished one), rendered on the server and sent to the caller’s own address.',
    tag: 'Courses',
    audience: 'member',
    errors: [404, 409, 502],
    body: z.object({
      courseId: requiredText(100).optional(),
      html: ignored('the server renders the certificate'),
      email: ignored("the certificate goes to the caller's own address"),
    }),
    responses: { 200: json('Sent', Message) },
  }),
} as const satisfies Record<string, ApiOperation>;

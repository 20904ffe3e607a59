import { z } from 'zod';
import { COURSE_TYPES, POLICY_KEYS } from '../../../db/enums';
import { ERROR_CODES } from '~/domain/api-errors';
import { MEMBER_TYPES } from '~/domain/plans';

/** The shapes more than one tag of the `/api` contract uses. */

export const success = z.literal(true);
export const isoDate = z.iso.datetime().describe('ISO 8601 date and time, UTC');

export const ErrorBody = z
  .object({
    success: z.literal(false),
    message: z.string().describe('What to show the person; may be reworded'),
    code: z
      .enum(ERROR_CODES)
      .describe('What went wrong, for a program to act on; stable (docs/api.md, Failures)'),
    param: z
      .string()
      .optional()
      .describe('The request field at fault, when one is (`email`, `courseId`...)'),
  })
  .describe(
    'Every failure: a 4xx (or 5xx when the server or a vendor failed) with a message and a code',
  );

export const Message = z.object({ success, message: z.string() });

export const MemberTypeSchema = z
  .enum(MEMBER_TYPES)
  .describe("The membership: 'free' or the paid plan's name");

export const courseFields = {
  _id: z.string(),
  user: z.string().describe("The owner's id"),
  mainTopic: z.string(),
  type: z.enum(COURSE_TYPES).describe("'text' (theory and image) or 'video' (video and theory)"),
  photo: z.string().describe('The card photo URL; empty until found'),
  date: isoDate.describe('When the course was made'),
  completed: z.boolean(),
  end: isoDate.nullable().describe('When it was finished; null until then'),
  language: z.string().describe('The language code of its text'),
};

export const AdminUser = z.object({
  _id: z.string(),
  email: z.string(),
  mName: z.string(),
  type: MemberTypeSchema,
});

export const Policies = z.object(
  Object.fromEntries(POLICY_KEYS.map((key) => [key, z.string().describe('HTML')])) as Record<
    (typeof POLICY_KEYS)[number],
    z.ZodString
  >,
);

export const ignored = (what: string) =>
  z.unknown().optional().describe(`Accepted and ignored: ${what}`);

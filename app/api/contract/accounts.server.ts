import { z } from 'zod';
import {
  forgotSchema,
  profileSchema,
  resetApiSchema,
  signInSchema,
  signUpSchema,
} from '~/services/accounts/schemas.server';
import { json, operation, type ApiOperation } from './operation.server';
import { ErrorBody, MemberTypeSchema, Message, success } from './shapes.server';

/** Accounts: signing up and in, passwords, the profile. */
export const accountOperations = {
  signin: operation({
    method: 'POST',
    path: '/api/signin',
    file: 'api.signin.ts',
    summary: 'Sign in',
    description: 'Sets the session cookie (for browsers on this site; API clients use a token).',
    tag: 'Accounts',
    audience: 'anyone',
    errors: [401],
    limited: true,
    body: signInSchema,
    responses: {
      200: json(
        'Signed in',
        z.object({
          success,
          message: z.string(),
          userData: z.object({
            email: z.string(),
            mName: z.string(),
            _id: z.string(),
            type: MemberTypeSchema,
          }),
        }),
      ),
    },
  }),
  signup: operation({
    method: 'POST',
    path: '/api/signup',
    file: 'api.signup.ts',
    summary: 'Sign up',
    description: 'Every account starts free: a `type` sent along is ignored. Also signs in.',
    tag: 'Accounts',
    audience: 'anyone',
    errors: [409],
    limited: true,
    body: signUpSchema,
    responses: {
      200: json('Account made', z.object({ success, message: z.string(), userId: z.string() })),
    },
  }),
  data: operation({
    method: 'POST',
    path: '/api/data',
    file: 'api.data.ts',
    summary: 'Removed: send an email',
    description:
      'Sent any HTML to any address (an open mail relay). The server sends its account emails itself.',
    tag: 'Accounts',
    audience: 'anyone',
    errors: [410],
    responses: { 410: json('Gone', ErrorBody) },
  }),
  forgot: operation({
    method: 'POST',
    path: '/api/forgot',
    file: 'api.forgot.ts',
    summary: 'Email a password reset link',
    description:
      'Only `email` is read (name, company and logo come from the account and the configuration). The same answer whether or not the account exists.',
    tag: 'Accounts',
    audience: 'anyone',
    limited: true,
    body: forgotSchema,
    responses: { 200: json('Sent if the account exists', Message) },
  }),
  resetPassword: operation({
    method: 'POST',
    path: '/api/reset-password',
    file: 'api.reset-password.ts',
    summary: 'Set a new password with a reset token',
    tag: 'Accounts',
    audience: 'anyone',
    limited: true,
    body: resetApiSchema,
    responses: {
      200: json('Password changed', z.object({ success, message: z.string(), email: z.string() })),
    },
  }),
  profile: operation({
    method: 'POST',
    path: '/api/profile',
    file: 'api.profile.ts',
    summary: "Change the caller's name, email or password",
    description:
      'A new email or password needs `currentPassword`; a new email takes effect when the link sent to it is followed. A new password ends every session and API token.',
    tag: 'Accounts',
    audience: 'member',
    errors: [403, 404, 409],
    limited: true,
    body: profileSchema.and(z.object({ uid: z.string().optional().describe("The caller's id") })),
    responses: { 200: json('Saved', Message) },
  }),
  export: operation({
    method: 'GET',
    path: '/api/export',
    file: 'api.export.ts',
    summary: "Everything of the caller's, in one zip",
    description:
      'The data export of /profile (**Export my data**): the account (profile, plan, subscriptions, receipts as PDFs), every outline, the text of every document the caller wrote a course from, and every course as its course record (`course.json`, the shape of `GET /api/courses`) and as Markdown, with the caller’s notes, tutor conversations, quiz attempts and flashcards with their review log. `README.md` in the zip says what each file is. Streamed as it is made (no `Content-Length`). A third export while two of the caller’s are under way: 429 with `Retry-After` (ADR 0060).',
    tag: 'Accounts',
    audience: 'member',
    errors: [429],
    responses: {
      200: {
        description: 'A zip file (`Content-Disposition: attachment`)',
        schema: z.string().describe('The zip’s bytes'),
        contentType: 'application/zip',
      },
    },
  }),
} as const satisfies Record<string, ApiOperation>;

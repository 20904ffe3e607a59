import { z } from 'zod';
import {
  COURSE_TYPES,
  GENERATION_STATES,
  MATERIAL_KINDS,
  PAYMENT_PROVIDERS,
  POLICY_KEYS,
} from '../../db/enums';
import { MEMBER_TYPES } from '~/domain/plans';
import { isCountryCode } from '~/domain/countries';
import {
  forgotSchema,
  profileSchema,
  resetApiSchema,
  signInSchema,
  signUpSchema,
} from '~/services/accounts.server';
import { contactSchema } from '~/services/contact.server';
import { editedOutlineSchema, rewriteInstruction } from '~/services/outline-authoring.server';
import { courseLanguage } from '~/utils/language.server';
import { REQUIRED_FIELDS_MESSAGE, requiredText } from '~/utils/validation.server';

/**
 * The `/api` contract (ADR 0035): for every route, the zod schemas its handler parses requests
 * with and types its answers against, and from which `/api/openapi.json` is generated. A route
 * answers through `apiJson`, so an answer that drifts from its schema fails `tsc`, and the
 * contract test validates every answer against the generated document.
 *
 * Shapes are the spec's (section 7): field names, nesting and values as its clients read them,
 * the provider subscription objects as the providers' own REST JSON. Every failure is
 * `{ success: false, message }` (the `default` response of each operation).
 */

// ---------------------------------------------------------------------------------------------
// Shared shapes

const success = z.literal(true);
const isoDate = z.iso.datetime().describe('ISO 8601 date and time, UTC');

export const ErrorBody = z
  .object({ success: z.literal(false), message: z.string().describe('What to show the person') })
  .describe('Every failure: a 4xx (or 5xx when the server or a vendor failed) with a message');

const Message = z.object({ success, message: z.string() });

export const MemberTypeSchema = z
  .enum(MEMBER_TYPES)
  .describe("The membership: 'free' or the paid plan's name");

/** The spec's course content: an object keyed by the lower-cased main topic. */
export const CourseContentSchema = z.record(
  z.string(),
  z.array(
    z.object({
      title: z.string(),
      subtopics: z.array(
        z.object({
          title: z.string(),
          theory: z.string().describe('Sanitized HTML; empty until written'),
          youtube: z.string().describe('A YouTube video id (video courses)'),
          image: z.string().describe('An image URL (theory and image courses)'),
          done: z.boolean(),
        }),
      ),
    }),
  ),
);

const courseFields = {
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

export const CourseRecord = z
  .object({
    ...courseFields,
    content: z
      .string()
      .describe('The course content as JSON text (topics → subtopics), as the spec has it'),
  })
  .describe("The spec's course record");

const AdminCourseRow = z
  .object(courseFields)
  .describe('A course record without its content (admins list every member’s courses)');

/** An outline before its course is made, as /topics shows it (`outlineStatus`, ADR 0032). */
export const OutlineSchema = z
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

const PayPalLink = z.object({ href: z.url(), rel: z.string(), method: z.string() });

const money = z.looseObject({ value: z.string(), currency_code: z.string() });

/** PayPal's subscription as its REST API gives it (v1/billing/subscriptions), snake_case. */
export const PayPalSubscription = z
  .looseObject({
    id: z.string(),
    status: z.string(),
    plan_id: z.string(),
    start_time: z.string(),
    subscriber: z.looseObject({
      name: z.looseObject({ given_name: z.string(), surname: z.string() }),
      email_address: z.string(),
      shipping_address: z
        .looseObject({
          address: z.looseObject({
            address_line_1: z.string().optional(),
            postal_code: z.string().optional(),
            country_code: z.string(),
          }),
        })
        .optional(),
    }),
    billing_info: z
      .looseObject({
        next_billing_time: z.string().optional(),
        last_payment: z.looseObject({ amount: money, time: z.string() }).optional(),
      })
      .optional(),
  })
  .describe("PayPal's subscription object, exactly as PayPal's REST API returns it");

/** Razorpay's subscription entity as its API gives it. */
export const RazorpaySubscription = z
  .looseObject({
    id: z.string(),
    entity: z.literal('subscription'),
    plan_id: z.string(),
    status: z.string(),
    current_start: z.number().nullable().describe('Unix seconds'),
    charge_at: z.number().nullable().describe('Unix seconds'),
    customer_id: z.string().nullable(),
    notes: z.union([
      z.looseObject({ notes_key_1: z.string().optional() }),
      z.array(z.unknown()).describe('Razorpay sends [] when there are no notes'),
    ]),
    short_url: z.string(),
  })
  .describe("Razorpay's subscription entity, exactly as Razorpay's API returns it");

const ProviderSubscription = z.union([PayPalSubscription, RazorpaySubscription]);

const AdminUser = z.object({
  _id: z.string(),
  email: z.string(),
  mName: z.string(),
  type: MemberTypeSchema,
});

const Policies = z.object(
  Object.fromEntries(POLICY_KEYS.map((key) => [key, z.string().describe('HTML')])) as Record<
    (typeof POLICY_KEYS)[number],
    z.ZodString
  >,
);

// ---------------------------------------------------------------------------------------------
// Request shapes the routes parse (and the document shows)

const prompt = (max: number) => z.object({ prompt: requiredText(max) });

const courseType = z.preprocess(
  (value) =>
    typeof value === 'string' && /video/i.test(value)
      ? 'video'
      : typeof value === 'string' && /text|theory/i.test(value)
        ? 'text'
        : value,
  z.enum(['text', 'video'], { error: REQUIRED_FIELDS_MESSAGE }),
);

const customerFields = {
  email: requiredText(254),
  name: requiredText(100),
  lastName: requiredText(100),
  post: z.union([z.string(), z.number()]).transform(String).pipe(requiredText(12)),
  address: requiredText(300),
  country: requiredText(2),
};
const customerRules = {
  email: z.email('Please enter a valid email address'),
  name: z.string(),
  lastName: z.string(),
  post: z.string().regex(/^\d{3,10}$/, 'The postal code should contain only digits'),
  address: z.string(),
  country: z.string().refine(isCountryCode, 'Please give a two-letter country code'),
};

const pagingQuery = z.object({
  page: z.coerce.number().int().positive().optional(),
  pageSize: z.coerce.number().int().positive().max(100).optional(),
  q: z.string().optional(),
  sort: z.string().optional(),
  dir: z.enum(['asc', 'desc']).optional(),
});

const outlineParams = z.object({
  outlineId: z.string().describe('The id in its /topics/{outlineId} address'),
});

const ignored = (what: string) => z.unknown().optional().describe(`Accepted and ignored: ${what}`);

// ---------------------------------------------------------------------------------------------
// The operations

export type Audience = 'anyone' | 'member' | 'admin';

export interface HeaderDoc {
  description: string;
}

export interface ResponseDoc {
  description: string;
  schema: z.ZodType;
  contentType?: string;
  headers?: Record<string, HeaderDoc>;
}

export interface ApiOperation<R extends Record<number, ResponseDoc> = Record<number, ResponseDoc>> {
  method: 'GET' | 'POST';
  /** As OpenAPI writes it: a path parameter in braces (`/api/outline/{outlineId}`). */
  path: string;
  /** The route module under app/routes/api that answers it. */
  file: string;
  summary: string;
  description?: string;
  tag: string;
  audience: Audience;
  body?: z.ZodType;
  query?: z.ZodObject;
  /** The path's parameters, one per `{name}` in `path`. */
  params?: z.ZodObject;
  responses: R;
}

const operation = <const O extends ApiOperation>(op: O): O => op;
const json = <S extends z.ZodType>(
  description: string,
  schema: S,
  headers?: Record<string, HeaderDoc>,
) => ({ description, schema, headers });

const pageHeaders = {
  'X-Total-Count': { description: 'How many rows match, over every page' },
  'X-Page': { description: 'This page' },
  'X-Page-Size': { description: 'Rows per page' },
};

const adminList = <Row extends z.ZodType>(path: string, file: string, summary: string, row: Row) =>
  operation({
    method: 'GET',
    path,
    file,
    summary,
    description:
      'Paged: `page`, `pageSize` (default 25, at most 100), search `q`, `sort` and `dir`; the total in `X-Total-Count`.',
    tag: 'Admin',
    audience: 'admin',
    query: pagingQuery,
    responses: { 200: json('An array', z.array(row), pageHeaders) },
  } as const);

export const API = {
  signin: operation({
    method: 'POST',
    path: '/api/signin',
    file: 'api.signin.ts',
    summary: 'Sign in',
    description: 'Sets the session cookie (for browsers on this site; API clients use a token).',
    tag: 'Accounts',
    audience: 'anyone',
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
    body: resetApiSchema,
    responses: {
      200: json('Password changed', z.object({ success, message: z.string(), email: z.string() })),
    },
  }),
  courses: operation({
    method: 'GET',
    path: '/api/courses',
    file: 'api.courses.ts',
    summary: "The caller's courses",
    description:
      'Newest first, with their content. A page holds `limit` courses (default and most 100) or about 8 MB of content, whichever comes first; more follow through `Link: <…>; rel="next"` (also `X-Next-Cursor`, passed back as `cursor`). `userId`, when sent, must be the caller’s.',
    tag: 'Courses',
    audience: 'member',
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
    query: z.object({ courseId: z.string() }),
    responses: { 200: json('The course record', z.object({ success, course: CourseRecord })) },
  }),
  prompt: operation({
    method: 'POST',
    path: '/api/prompt',
    file: 'api.prompt.ts',
    summary: 'An outline from the AI',
    description: 'One call of the hourly AI allowance.',
    tag: 'AI and media',
    audience: 'member',
    body: prompt(4000),
    responses: {
      200: json(
        'The outline',
        z.object({
          success,
          generatedText: z
            .string()
            .describe('JSON text of course content (every lesson without theory yet)'),
        }),
      ),
    },
  }),
  generate: operation({
    method: 'POST',
    path: '/api/generate',
    file: 'api.generate.ts',
    summary: "The AI's answer to a prompt",
    description: 'One call of the hourly AI allowance.',
    tag: 'AI and media',
    audience: 'member',
    body: prompt(4000),
    responses: {
      200: json('The answer', z.object({ success, text: z.string().describe('Sanitized HTML') })),
    },
  }),
  image: operation({
    method: 'POST',
    path: '/api/image',
    file: 'api.image.ts',
    summary: 'A photo for a prompt',
    description: 'One call of the hourly AI allowance.',
    tag: 'AI and media',
    audience: 'member',
    body: prompt(300),
    responses: {
      200: json(
        'The best photo (empty url when none)',
        z.object({
          success,
          url: z.string(),
          credit: z.object({ name: z.string(), url: z.string() }).nullable(),
        }),
      ),
    },
  }),
  yt: operation({
    method: 'POST',
    path: '/api/yt',
    file: 'api.yt.ts',
    summary: 'A YouTube video for a prompt',
    description: 'One call of the hourly AI allowance.',
    tag: 'AI and media',
    audience: 'member',
    body: prompt(300),
    responses: {
      200: json(
        'An embeddable video',
        z.object({ success, url: z.string().describe('The video id (empty when none)') }),
      ),
    },
  }),
  transcript: operation({
    method: 'POST',
    path: '/api/transcript',
    file: 'api.transcript.ts',
    summary: "A video's captions",
    description:
      'One call of the hourly AI allowance. A 404 when the video has none: use a plain explanation prompt instead.',
    tag: 'AI and media',
    audience: 'member',
    body: z.object({ prompt: requiredText(20).describe('The video id') }),
    responses: {
      200: json(
        'The captions',
        z.object({
          success,
          url: z
            .array(z.object({ text: z.string(), offset: z.number(), duration: z.number() }))
            .describe('The list of caption items, each with its text'),
        }),
      ),
    },
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
    body: z.object({
      user: z.string().optional().describe("The caller's own id, when sent"),
      mainTopic: requiredText(120, { label: 'Main topic', singleLine: true }),
      type: courseType.describe("'text' or 'video' (or the spec's course type names)"),
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
    body: z.object({ courseId: requiredText(100) }),
    responses: {
      200: json('Finished', z.object({ success, certificateId: z.string(), completedAt: isoDate })),
    },
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
    body: z.object({
      courseId: requiredText(100).optional(),
      html: ignored('the server renders the certificate'),
      email: ignored("the certificate goes to the caller's own address"),
    }),
    responses: { 200: json('Sent', Message) },
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
    body: profileSchema.and(z.object({ uid: z.string().optional().describe("The caller's id") })),
    responses: { 200: json('Saved', Message) },
  }),
  paypal: operation({
    method: 'POST',
    path: '/api/paypal',
    file: 'api.paypal.ts',
    summary: 'Start a PayPal subscription',
    description:
      'The member approves it at the `rel: approve` link. brand, admin and user are ignored.',
    tag: 'Billing',
    audience: 'member',
    body: z
      .object({ planId: requiredText(64), ...customerFields })
      .pipe(z.object({ planId: z.string(), ...customerRules })),
    responses: {
      200: json(
        'Created',
        z.object({
          success,
          id: z.string().describe("PayPal's subscription id"),
          status: z.string(),
          links: z.array(PayPalLink),
        }),
      ),
    },
  }),
  razorpaycreate: operation({
    method: 'POST',
    path: '/api/razorpaycreate',
    file: 'api.razorpaycreate.ts',
    summary: 'Start a Razorpay subscription',
    description:
      'Answers Razorpay’s subscription entity: the member pays at `short_url`, then `/api/razorapypending` with its `id`. `plan` is the plan’s name, id or Razorpay plan id.',
    tag: 'Billing',
    audience: 'member',
    body: z.object({
      plan: requiredText(64),
      email: requiredText(254).pipe(z.email('Please enter a valid email address')),
      fullAddress: z.string().max(600).optional(),
      name: z.string().max(100).optional(),
      lastName: z.string().max(100).optional(),
      post: z.union([z.string(), z.number()]).transform(String).optional(),
      address: z.string().max(300).optional(),
      country: z.string().max(2).optional(),
    }),
    responses: { 200: json('Created', RazorpaySubscription) },
  }),
  paypaldetails: operation({
    method: 'POST',
    path: '/api/paypaldetails',
    file: 'api.paypaldetails.ts',
    summary: 'Confirm a PayPal subscription',
    description:
      "When PayPal says it is active on one of the plans, the caller's membership becomes that plan. uid and plan are ignored.",
    tag: 'Billing',
    audience: 'member',
    body: z.object({
      subscriberId: requiredText(64),
      uid: ignored('the caller is the token’s or session’s member'),
      plan: ignored('the plan is what PayPal says'),
    }),
    responses: { 200: json("PayPal's subscription object", PayPalSubscription) },
  }),
  razorapydetails: operation({
    method: 'POST',
    path: '/api/razorapydetails',
    file: 'api.razorapydetails.ts',
    summary: 'Confirm a Razorpay subscription',
    description: 'As /api/paypaldetails, for Razorpay (the path keeps the spec’s spelling).',
    tag: 'Billing',
    audience: 'member',
    body: z.object({
      subscriberId: requiredText(64),
      uid: ignored('the caller is the token’s or session’s member'),
      plan: ignored('the plan is what Razorpay says'),
    }),
    responses: { 200: json("Razorpay's subscription entity", RazorpaySubscription) },
  }),
  sendreceipt: operation({
    method: 'POST',
    path: '/api/sendreceipt',
    file: 'api.sendreceipt.ts',
    summary: 'Email the receipt of the newest payment (once)',
    description: 'Rendered on the server; html, email and subscription sent along are ignored.',
    tag: 'Billing',
    audience: 'member',
    responses: { 200: json('Sent', Message) },
  }),
  downloadreceipt: operation({
    method: 'POST',
    path: '/api/downloadreceipt',
    file: 'api.downloadreceipt.ts',
    summary: 'Email the newest receipt again',
    description: 'As a PDF, to the caller’s own address; at most 5 an hour.',
    tag: 'Billing',
    audience: 'member',
    responses: { 200: json('Sent', Message) },
  }),
  subscriptiondetail: operation({
    method: 'POST',
    path: '/api/subscriptiondetail',
    file: 'api.subscriptiondetail.ts',
    summary: "The caller's subscription",
    tag: 'Billing',
    audience: 'member',
    responses: {
      200: json(
        'The subscription',
        z.object({
          success,
          method: z.enum(PAYMENT_PROVIDERS),
          session: ProviderSubscription.nullable().describe(
            "The provider's own subscription object (null when it cannot be reached)",
          ),
          status: z.string().describe('As this site records it'),
          paidUntil: isoDate.nullable().describe('Set once cancelled: the plan lasts until then'),
        }),
      ),
    },
  }),
  paypalcancel: operation({
    method: 'POST',
    path: '/api/paypalcancel',
    file: 'api.paypalcancel.ts',
    summary: "Cancel the caller's subscription",
    description: 'The plan stays until the period paid for ends. Any `id` sent is ignored.',
    tag: 'Billing',
    audience: 'member',
    body: z.object({ id: ignored("the caller's own subscription is cancelled") }),
    responses: {
      200: json('Cancelled', z.object({ success, message: z.string(), paidUntil: isoDate })),
    },
  }),
  razorpaycancel: operation({
    method: 'POST',
    path: '/api/razorpaycancel',
    file: 'api.razorpaycancel.ts',
    summary: "Cancel the caller's subscription",
    description: 'The same as /api/paypalcancel.',
    tag: 'Billing',
    audience: 'member',
    body: z.object({ id: ignored("the caller's own subscription is cancelled") }),
    responses: {
      200: json('Cancelled', z.object({ success, message: z.string(), paidUntil: isoDate })),
    },
  }),
  paypalupdate: operation({
    method: 'POST',
    path: '/api/paypalupdate',
    file: 'api.paypalupdate.ts',
    summary: 'Move a PayPal subscription to the other plan',
    description: 'Approved at the `rel: approve` link. Any `id` sent is ignored.',
    tag: 'Billing',
    audience: 'member',
    body: z.object({
      idPlan: z.string().max(64).optional().describe('The plan (default: the other paid plan)'),
      id: ignored("the caller's own subscription is changed"),
    }),
    responses: { 200: json('Revised', z.object({ success, links: z.array(PayPalLink) })) },
  }),
  paypalupdateuser: operation({
    method: 'POST',
    path: '/api/paypalupdateuser',
    file: 'api.paypalupdateuser.ts',
    summary: 'Confirm a plan change',
    description: 'The plan becomes what PayPal now says; mName, email, user and plan are ignored.',
    tag: 'Billing',
    audience: 'member',
    body: z.object({ id: requiredText(64) }),
    responses: { 200: json('The new plan', z.object({ success, plan: MemberTypeSchema })) },
  }),
  razorapypending: operation({
    method: 'POST',
    path: '/api/razorapypending',
    file: 'api.razorapypending.ts',
    summary: 'Check a pending Razorpay payment',
    description: "'active' (the caller is now paid), 'pending', or 'cancelled'/'expired'.",
    tag: 'Billing',
    audience: 'member',
    body: z.object({ sub: requiredText(64) }),
    responses: { 200: json('Its status', z.object({ success, status: z.string() })) },
  }),
  contact: operation({
    method: 'POST',
    path: '/api/contact',
    file: 'api.contact.ts',
    summary: 'Send a message to the site',
    tag: 'Site',
    audience: 'anyone',
    body: contactSchema,
    responses: { 200: json('Sent', Message) },
  }),
  dashboard: operation({
    method: 'POST',
    path: '/api/dashboard',
    file: 'api.dashboard.ts',
    summary: 'The admin dashboard',
    tag: 'Admin',
    audience: 'admin',
    responses: {
      200: json(
        'Figures ($ in sum and total)',
        z.object({
          users: z.number(),
          courses: z.number(),
          sum: z.number(),
          total: z.number(),
          paid: z.number(),
          free: z.number(),
          textType: z.number(),
          videoType: z.number(),
          admin: Policies.extend({ email: z.string() }),
        }),
      ),
    },
  }),
  getusers: adminList('/api/getusers', 'api.getusers.ts', 'Members', AdminUser),
  getcourses: adminList(
    '/api/getcourses',
    'api.getcourses.ts',
    "Every member's courses",
    AdminCourseRow,
  ),
  getpaid: adminList('/api/getpaid', 'api.getpaid.ts', 'Paid members', AdminUser),
  getcontact: adminList(
    '/api/getcontact',
    'api.getcontact.ts',
    'Contact messages',
    z.object({
      _id: z.string(),
      fname: z.string(),
      lname: z.string(),
      email: z.string(),
      phone: z.string(),
      msg: z.string(),
    }),
  ),
  getadmins: operation({
    method: 'GET',
    path: '/api/getadmins',
    file: 'api.getadmins.ts',
    summary: 'Admins, and a page of members',
    tag: 'Admin',
    audience: 'admin',
    query: pagingQuery,
    responses: {
      200: json(
        'Admins and members',
        z.object({
          admins: z.array(
            z.object({
              _id: z.string(),
              email: z.string(),
              mName: z.string(),
              type: z.enum(['main', 'no']).describe("'no': a removable admin"),
            }),
          ),
          users: z.array(AdminUser),
        }),
      ),
    },
  }),
  addadmin: operation({
    method: 'POST',
    path: '/api/addadmin',
    file: 'api.addadmin.ts',
    summary: 'Make a member an admin',
    tag: 'Admin',
    audience: 'admin',
    body: z.object({ email: requiredText(254) }),
    responses: { 200: json('Done', Message) },
  }),
  removeadmin: operation({
    method: 'POST',
    path: '/api/removeadmin',
    file: 'api.removeadmin.ts',
    summary: 'Remove an admin',
    description: 'The main admin and oneself cannot be removed.',
    tag: 'Admin',
    audience: 'admin',
    body: z.object({ email: requiredText(254) }),
    responses: { 200: json('Done', Message) },
  }),
  saveadmin: operation({
    method: 'POST',
    path: '/api/saveadmin',
    file: 'api.saveadmin.ts',
    summary: 'Save a policy text',
    description: 'The HTML is sanitized on the way in.',
    tag: 'Admin',
    audience: 'admin',
    body: z.object({
      data: z
        .string({ error: REQUIRED_FIELDS_MESSAGE })
        .min(1, REQUIRED_FIELDS_MESSAGE)
        .max(200_000),
      type: z.enum(POLICY_KEYS, { error: 'Unknown policy' }),
    }),
    responses: { 200: json('Saved', Message) },
  }),
  policies: operation({
    method: 'GET',
    path: '/api/policies',
    file: 'api.policies.ts',
    summary: 'The five policy texts',
    tag: 'Site',
    audience: 'anyone',
    responses: {
      200: json('One item holding every text (sanitized HTML)', z.array(Policies).length(1)),
    },
  }),
  openapi: operation({
    method: 'GET',
    path: '/api/openapi.json',
    file: 'api.openapi[.json].ts',
    summary: 'This document',
    tag: 'Site',
    audience: 'anyone',
    responses: { 200: json('OpenAPI 3.1', z.looseObject({ openapi: z.literal('3.1.0') })) },
  }),
  docs: operation({
    method: 'GET',
    path: '/api/docs',
    file: 'api.docs.ts',
    summary: 'This document, to read',
    tag: 'Site',
    audience: 'anyone',
    responses: {
      200: { description: 'An HTML page', schema: z.string(), contentType: 'text/html' },
    },
  }),
  paypalWebhook: operation({
    method: 'POST',
    path: '/webhooks/paypal',
    file: 'webhooks.paypal.ts',
    summary: "PayPal's events",
    description: "Verified with PayPal's verify-webhook-signature API; for PayPal only.",
    tag: 'Webhooks',
    audience: 'anyone',
    body: z.looseObject({}).describe("PayPal's event"),
    responses: { 200: json('Received', z.object({ received: z.literal(true) })) },
  }),
  razorpayWebhook: operation({
    method: 'POST',
    path: '/webhooks/razorpay',
    file: 'webhooks.razorpay.ts',
    summary: "Razorpay's events",
    description: 'Signed with X-Razorpay-Signature; for Razorpay only.',
    tag: 'Webhooks',
    audience: 'anyone',
    body: z.looseObject({}).describe("Razorpay's event"),
    responses: { 200: json('Received', z.object({ received: z.literal(true) })) },
  }),
} as const satisfies Record<string, ApiOperation>;

export type ApiOperations = typeof API;

/** The body an operation answers with `status`, as its schema has it. */
export type ApiBody<
  O extends ApiOperation,
  S extends keyof O['responses'],
> = O['responses'][S] extends ResponseDoc ? z.output<O['responses'][S]['schema']> : never;

/**
 * A route's answer, typed against its documented schema: `apiJson(API.signin, 200, {...})`.
 * Failures go through failureJson/badRequest (`ErrorBody`).
 */
export function apiJson<O extends ApiOperation, S extends keyof O['responses'] & number>(
  _operation: O,
  status: S,
  body: ApiBody<O, S>,
  init: { headers?: HeadersInit } = {},
): Response {
  return Response.json(body, { status, headers: init.headers });
}

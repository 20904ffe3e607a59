import { z } from 'zod';
import { POLICY_KEYS } from '../../../db/enums';
import { REQUIRED_FIELDS_MESSAGE, requiredText } from '~/utils/validation.server';
import { json, operation, type ApiOperation } from './operation.server';
import { AdminUser, courseFields, Message, Policies } from './shapes.server';

const AdminCourseRow = z
  .object(courseFields)
  .describe('A course record without its content (admins list every member’s courses)');

const PAGE_MESSAGE = 'page must be a whole number from 1';
const PAGE_SIZE_MESSAGE = 'pageSize must be a whole number from 1 to 100';

/** Checked as sent (ADR 0057): a pageSize of 1000 or `abc` is a 400, not quietly 100 or 25. */
const pagingQuery = z.object({
  page: z.coerce
    .number({ error: PAGE_MESSAGE })
    .int(PAGE_MESSAGE)
    .min(1, PAGE_MESSAGE)
    .max(1_000_000, PAGE_MESSAGE)
    .optional(),
  pageSize: z.coerce
    .number({ error: PAGE_SIZE_MESSAGE })
    .int(PAGE_SIZE_MESSAGE)
    .min(1, PAGE_SIZE_MESSAGE)
    .max(100, PAGE_SIZE_MESSAGE)
    .optional(),
  q: z.string().optional(),
  sort: z.string().optional(),
  dir: z.enum(['asc', 'desc']).optional(),
});

const pageHeaders = {
  Link: {
    description:
      'The other pages, as GitHub gives them: `<…?page=1&pageSize=25>; rel="first"`, `rel="prev"`, `rel="next"`, `rel="last"`',
  },
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
      'Paged: `page`, `pageSize` (default 25, 1 to 100; 400 outside), search `q`, `sort` and `dir`; the total in `X-Total-Count`, the other pages in `Link`.',
    tag: 'Admin',
    audience: 'admin',
    query: pagingQuery,
    responses: { 200: json('An array', z.array(row), pageHeaders) },
  } as const);

/** Admin: admins only (an admin’s session or API token). */
export const adminOperations = {
  dashboard: operation({
    method: 'POST',
    path: '/api/dashboard',
    file: 'api.dashboard.ts',
    summary: 'The admin dashboard',
    tag: 'Admin',
    audience: 'admin',
    responses: {
      200: json(
        'Figures: `sum` and `total` in US dollars only, `revenue` per currency',
        z.object({
          users: z.number(),
          courses: z.number(),
          sum: z.number().describe('Recurring revenue a month in USD (active subscriptions)'),
          total: z.number().describe('Every payment recorded in USD'),
          revenue: z
            .array(
              z.object({
                currency: z.string().describe('ISO 4217 code: USD, INR...'),
                recurring: z.number().describe('Recurring revenue a month, in this currency'),
                total: z.number().describe('Every payment recorded, in this currency'),
              }),
            )
            .describe('Each currency apart, never summed across currencies'),
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
    errors: [404, 409],
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
    errors: [404, 409],
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
    errors: [404, 409],
    body: z.object({
      data: z
        .string({ error: REQUIRED_FIELDS_MESSAGE })
        .min(1, REQUIRED_FIELDS_MESSAGE)
        .max(200_000),
      type: z.enum(POLICY_KEYS, { error: 'Unknown policy' }),
    }),
    responses: { 200: json('Saved', Message) },
  }),
} as const satisfies Record<string, ApiOperation>;

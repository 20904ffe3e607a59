import { z } from 'zod';
import { env } from '~/utils/env.server';
import { API } from './contract.server';
import type { ApiOperation, ErrorStatus, ResponseDoc } from './contract/operation.server';
import { ErrorBody } from './contract/shapes.server';

/**
 * The OpenAPI 3.1 document of the `/api` (ADR 0035), generated from the zod schemas the routes
 * parse requests with and type their answers against (contract.server.ts and ./contract), so the document
 * cannot drift from the code without `tsc` or the contract test saying so.
 */

type JsonSchema = Record<string, unknown>;

/** JSON Schema 2020-12, which OpenAPI 3.1 uses as it is. */
function jsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const converted = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  delete converted.$schema;
  return converted;
}

const TAGS = [
  { name: 'Accounts', description: 'Signing up and in, passwords, the profile.' },
  { name: 'Courses', description: "The caller's courses: list, save, progress, certificates." },
  { name: 'AI and media', description: 'Each call counts against the hourly AI allowance.' },
  { name: 'Billing', description: 'PayPal and Razorpay subscriptions.' },
  { name: 'Admin', description: 'Admins only (an admin’s session or API token).' },
  { name: 'Site', description: 'Public: contact, policies, plans and prices, this document.' },
  { name: 'Webhooks', description: 'For the payment providers only.' },
];

const SIGNED_IN = [{ bearerAuth: [] }, { cookieAuth: [] }];

function parametersIn(where: 'query' | 'path', object: z.ZodObject | undefined) {
  if (!object) return [];
  const schema = jsonSchema(object, 'input') as {
    properties?: Record<string, JsonSchema>;
    required?: string[];
  };
  return Object.entries(schema.properties ?? {}).map(([name, property]) => ({
    name,
    in: where,
    // OpenAPI: a path parameter is always required.
    required: where === 'path' || (schema.required?.includes(name) ?? false),
    description: property.description,
    schema: property,
  }));
}

const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Any unique string up to 255 characters (a UUID): a retry with the same key and body answers the first answer again (`Idempotent-Replayed: true`) instead of doing it twice; kept 24 hours per member. The same key with another body: 422; while the first still runs: 409 after a wait.',
  schema: { type: 'string', minLength: 1, maxLength: 255 },
};

function parameters(operation: ApiOperation) {
  const all = [
    ...parametersIn('path', operation.params),
    ...parametersIn('query', operation.query),
    ...(operation.idempotent ? [IDEMPOTENCY_KEY] : []),
  ];
  return all.length > 0 ? all : undefined;
}

function response(doc: ResponseDoc) {
  return {
    description: doc.description,
    ...(doc.headers
      ? {
          headers: Object.fromEntries(
            Object.entries(doc.headers).map(([name, header]) => [
              name,
              { description: header.description, schema: { type: 'string' } },
            ]),
          ),
        }
      : {}),
    content: {
      [doc.contentType ?? 'application/json']: { schema: jsonSchema(doc.schema, 'output') },
    },
  };
}

function describeAudience(operation: ApiOperation): string {
  if (operation.audience === 'admin')
    return '\n\nAdmins only: 401 without credentials, 403 for a member.';
  if (operation.audience === 'member')
    return '\n\nSigned in: an API token (or the session cookie); 401 without.';
  return '';
}

const ERROR_DESCRIPTIONS: Record<ErrorStatus, string> = {
  400: 'The request is wrong: a field (`param`) missing or invalid (`invalid_request`), or a body that is not JSON (`invalid_json`)',
  401: 'No credentials (`authentication_required`) or a token that does not exist (`invalid_token`); `WWW-Authenticate: Bearer`',
  403: 'Not allowed: `forbidden` (a member on an admin route, another member’s id), `plan_required`, `cross_site_request`',
  404: 'Not found (`not_found`), or not the caller’s',
  409: 'Not now (`conflict`), or a request with the same Idempotency-Key still running (`idempotency_key_in_use`)',
  410: 'Removed on purpose (`gone`)',
  413: 'The body is larger than this operation takes (`body_too_large`)',
  422: 'The Idempotency-Key was used before with another body (`idempotency_key_reused`)',
  429: 'A rate limit, the hourly AI allowance, or too many failed authentications (`rate_limited`): wait `Retry-After` seconds',
  500: 'The server failed (`internal_error`)',
  502: 'A vendor (AI, payments, email) failed (`service_unavailable`): try again later',
  503: 'Busy, or a vendor not set up (`server_busy`, `service_unavailable`): try again after `Retry-After`',
};

/**
 * Every status an operation can fail with (ADR 0057): what every operation of its kind can
 * answer, and its own (`errors`).
 */
function errorStatuses(operation: ApiOperation): ErrorStatus[] {
  const statuses = new Set<ErrorStatus>(operation.errors ?? []);
  const post = operation.method === 'POST';
  if (operation.body || operation.query || operation.params || post) statuses.add(400);
  if (operation.audience !== 'anyone') statuses.add(401);
  if (operation.audience === 'admin') statuses.add(403);
  if (post) statuses.add(413);
  if (operation.idempotent) {
    statuses.add(409);
    statuses.add(422);
  }
  // Limited routes, and failed authentication on any signed-in one.
  if (operation.limited || operation.audience !== 'anyone') statuses.add(429);
  statuses.add(500);
  statuses.add(503);
  return [...statuses].sort((a, b) => a - b);
}

const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': { description: 'Requests (or AI calls) the window allows' },
  'RateLimit-Remaining': { description: 'What is left of them in this window' },
  'RateLimit-Reset': { description: 'Seconds until the window starts again' },
};

function errorResponse(status: ErrorStatus, operation: ApiOperation) {
  return response({
    description: ERROR_DESCRIPTIONS[status],
    schema: ErrorBody,
    headers:
      status === 429
        ? { 'Retry-After': { description: 'Seconds to wait' }, ...RATE_LIMIT_HEADERS }
        : status === 401 && operation.audience !== 'anyone'
          ? {
              'WWW-Authenticate': {
                description: '`Bearer`, with `error="invalid_token"` for a bad token',
              },
            }
          : status === 503
            ? { 'Retry-After': { description: 'Seconds to wait, when known' } }
            : undefined,
  });
}

function pathItem(key: string, operation: ApiOperation) {
  return {
    operationId: key,
    summary: operation.summary,
    description: `${operation.description ?? ''}${describeAudience(operation)}`.trim() || undefined,
    tags: [operation.tag],
    security: operation.audience === 'anyone' ? [] : SIGNED_IN,
    parameters: parameters(operation),
    ...(operation.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: jsonSchema(operation.body, 'input') } },
          },
        }
      : {}),
    responses: {
      ...Object.fromEntries(
        Object.entries(operation.responses).map(([status, doc]) => [
          status,
          operation.limited
            ? response({ ...doc, headers: { ...doc.headers, ...RATE_LIMIT_HEADERS } })
            : response(doc),
        ]),
      ),
      ...Object.fromEntries(
        errorStatuses(operation).map((status) => [status, errorResponse(status, operation)]),
      ),
      default: {
        description: 'Any other failure: `{ success: false, message, code }`',
        content: { 'application/json': { schema: jsonSchema(ErrorBody, 'output') } },
      },
    },
  };
}

let cached: { key: string; document: JsonSchema } | undefined;

/** The document, built once per process (and per APP_URL and site name, which it carries). */
export function openApiDocument(siteName: string): JsonSchema {
  const { APP_URL } = env();
  const key = `${APP_URL}|${siteName}`;
  if (cached?.key === key) return cached.document;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [name, operation] of Object.entries(API) as [string, ApiOperation][]) {
    paths[operation.path] ??= {};
    paths[operation.path]![operation.method.toLowerCase()] = pathItem(name, operation);
  }
  const document = {
    openapi: '3.1.0',
    info: {
      title: `${siteName} API`,
      version: '1.0.0',
      description: [
        'The JSON API of this site, in the shapes of its specification.',
        'Authenticate with a personal API token made on /profile: `Authorization: Bearer <token>`.',
        'Every failure answers `{ "success": false, "message": "…", "code": "…" }` with a 4xx status (5xx when the server or a vendor failed), and `param` naming the field at fault when one is; each operation lists the statuses it can fail with.',
        'Creating POSTs take an `Idempotency-Key` header: a retry with the same key and body answers the first answer again instead of doing it twice (kept 24 hours per member).',
        'Rate-limited operations answer `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`, and `Retry-After` with their 429.',
        'Browser clients on other origins need their origin in the operator’s `API_ALLOWED_ORIGINS`; they authenticate with the token only, never a cookie.',
      ].join('\n\n'),
    },
    servers: [{ url: APP_URL }],
    tags: TAGS,
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'A personal API token (`cgk_…`), made and revoked on /profile.',
        },
        cookieAuth: {
          type: 'apiKey',
          in: 'cookie',
          name: '__session',
          description: "The site's own session cookie (its pages; never across origins).",
        },
      },
    },
  };
  cached = { key, document };
  return document;
}

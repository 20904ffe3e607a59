import { z } from 'zod';
import { env } from '~/utils/env.server';
import { API } from './contract.server';
import type { ApiOperation, ResponseDoc } from './contract/operation.server';
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
  { name: 'Site', description: 'Public: contact, policies, this document.' },
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

function parameters(operation: ApiOperation) {
  const all = [
    ...parametersIn('path', operation.params),
    ...parametersIn('query', operation.query),
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
        Object.entries(operation.responses).map(([status, doc]) => [status, response(doc)]),
      ),
      default: {
        description: 'A failure: `{ success: false, message }`',
        content: { 'application/json': { schema: jsonSchema(ErrorBody, 'output') } },
      },
    },
  };
}

let cached: { key: string; document: JsonSchema } | undefined;

/** The document, built once per process (and per APP_URL, which names the server). */
export function openApiDocument(): JsonSchema {
  const { APP_URL, COMPANY_NAME } = env();
  const key = `${APP_URL}|${COMPANY_NAME}`;
  if (cached?.key === key) return cached.document;
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [name, operation] of Object.entries(API) as [string, ApiOperation][]) {
    paths[operation.path] ??= {};
    paths[operation.path]![operation.method.toLowerCase()] = pathItem(name, operation);
  }
  const document = {
    openapi: '3.1.0',
    info: {
      title: `${COMPANY_NAME} API`,
      version: '1.0.0',
      description: [
        'The JSON API of this site, in the shapes of its specification.',
        'Authenticate with a personal API token made on /profile: `Authorization: Bearer <token>`.',
        'Every failure answers `{ "success": false, "message": "…" }` with a 4xx status (5xx when the server or a vendor failed).',
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

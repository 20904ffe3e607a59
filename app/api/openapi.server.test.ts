import fs from 'node:fs';
import path from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { API, type ApiOperation } from './contract.server';
import { openApiDocument } from './openapi.server';

/**
 * The OpenAPI document covers the whole of app/routes/api: every route file, with the method
 * its module answers, and every schema in it is valid JSON Schema 2020-12 (OpenAPI 3.1's).
 * What each route answers is checked against the document by tests/integration/api-contract.
 */
const ROUTES_DIR = path.join(import.meta.dirname, '../routes/api');
const operations = Object.values(API) as ApiOperation[];

type Operation = {
  responses: Record<string, { content: Record<string, { schema: object }> }>;
  requestBody?: { content: Record<string, { schema: object }> };
  parameters?: { schema: object }[];
};

describe('the OpenAPI document', () => {
  const document = openApiDocument('CourseGen') as {
    openapi: string;
    paths: Record<string, Record<string, Operation>>;
  };

  it('documents every route file under app/routes/api, with the methods it answers', async () => {
    const files = fs.readdirSync(ROUTES_DIR).filter((file) => /\.tsx?$/.test(file));
    expect(files.length).toBeGreaterThan(35);
    for (const file of files) {
      const documented = operations.filter((operation) => operation.file === file);
      expect(documented.length, `${file} is not in the document`).toBeGreaterThan(0);
      const module = (await import(/* @vite-ignore */ path.join(ROUTES_DIR, file))) as {
        loader?: unknown;
        action?: unknown;
      };
      for (const operation of documented) {
        expect(
          operation.method === 'GET' ? module.loader : module.action,
          `${file} answers ${operation.method}`,
        ).toBeTypeOf('function');
        expect(document.paths[operation.path]?.[operation.method.toLowerCase()]).toBeDefined();
      }
    }
    for (const operation of operations)
      expect(files, `${operation.path} names a route file`).toContain(operation.file);
  });

  it('is OpenAPI 3.1 whose schemas all compile as JSON Schema 2020-12', () => {
    expect(document.openapi).toBe('3.1.0');
    const ajv = new Ajv2020({ strict: false, validateFormats: false });
    let schemas = 0;
    for (const [route, methods] of Object.entries(document.paths))
      for (const [method, operation] of Object.entries(methods)) {
        const all = [
          ...Object.values(operation.responses).flatMap((r) =>
            Object.values(r.content).map((c) => c.schema),
          ),
          ...Object.values(operation.requestBody?.content ?? {}).map((c) => c.schema),
          ...(operation.parameters ?? []).map((p) => p.schema),
        ];
        for (const schema of all) {
          expect(() => ajv.compile(schema), `${method} ${route}`).not.toThrow();
          schemas += 1;
        }
        expect(
          operation.responses.default,
          `${method} ${route} documents its failures`,
        ).toBeDefined();
      }
    expect(schemas).toBeGreaterThan(80);
  });

  it('lists every failure status of each operation, each with a machine-readable code', () => {
    for (const operation of operations) {
      const documented = document.paths[operation.path]![operation.method.toLowerCase()]!;
      const statuses = Object.keys(documented.responses);
      const label = `${operation.method} ${operation.path}`;
      expect(statuses, label).toEqual(expect.arrayContaining(['500', '503']));
      if (operation.audience !== 'anyone') expect(statuses, label).toContain('401');
      if (operation.audience === 'admin') expect(statuses, label).toContain('403');
      if (operation.method === 'POST')
        expect(statuses, label).toEqual(expect.arrayContaining(['400', '413']));
      const failure = documented.responses['500']!.content['application/json']!.schema as {
        required: string[];
        properties: Record<string, { enum?: string[] }>;
      };
      expect(failure.required).toEqual(expect.arrayContaining(['success', 'message', 'code']));
      expect(failure.properties.code!.enum).toContain('invalid_json');
    }
    const course = document.paths['/api/course']!.post!;
    expect(Object.keys(course.responses)).toEqual(
      expect.arrayContaining(['403', '409', '422', '429']),
    );
    const type = JSON.stringify(course.requestBody!.content['application/json']!.schema);
    expect(type).toContain('video & text course');
    expect(type).toContain('text & image course');
  });

  it("gives the spec's shapes: course records with content, provider objects in snake_case", () => {
    const courses = document.paths['/api/courses']!.get!.responses['200']!.content[
      'application/json'
    ]!.schema as { items: { required: string[]; properties: Record<string, { type: unknown }> } };
    expect(courses.items.required).toEqual(
      expect.arrayContaining([
        '_id',
        'mainTopic',
        'type',
        'photo',
        'date',
        'content',
        'completed',
        'end',
        'user',
      ]),
    );
    expect(courses.items.properties.content!.type).toBe('string');
    const paypal = JSON.stringify(
      document.paths['/api/paypaldetails']!.post!.responses['200']!.content['application/json']!
        .schema,
    );
    for (const field of [
      'start_time',
      'billing_info',
      'next_billing_time',
      'given_name',
      'email_address',
    ])
      expect(paypal).toContain(`"${field}"`);
    expect(paypal).not.toContain('startTime');
    const transcript = document.paths['/api/transcript']!.post!.responses['200']!.content[
      'application/json'
    ]!.schema as { properties: { url: { type: string } } };
    expect(transcript.properties.url.type).toBe('array');
  });
});

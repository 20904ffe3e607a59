import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { createUser } from '~/models/users.server';
import * as apiCourse from '~/routes/api/api.course';
import * as apiCourses from '~/routes/api/api.courses';
import * as apiFinish from '~/routes/api/api.finish';
import * as apiGenerate from '~/routes/api/api.generate';
import * as apiImage from '~/routes/api/api.image';
import * as apiPolicies from '~/routes/api/api.policies';
import * as apiPrompt from '~/routes/api/api.prompt';
import * as apiSendCertificate from '~/routes/api/api.sendcertificate';
import * as apiTranscript from '~/routes/api/api.transcript';
import * as apiUpdate from '~/routes/api/api.update';
import * as apiYt from '~/routes/api/api.yt';
import { createSession } from '~/utils/auth.server';
import { database, databaseDialect } from '~/utils/database.server';

/**
 * When the server fails unexpectedly (here: a table the routes read is gone),
 * every /api route answers the spec's JSON 'Internal Server Error' with a 500,
 * never Remix's plain-text error or a stack trace.
 */
type Handler = (args: {
  request: Request;
  params: Record<string, string>;
  context: { clientIp: string };
}) => Promise<unknown>;

const broken: string[] = [];
// A raw statement on purpose: no builder renames a table. The same SQL on both databases, run
// by each driver's own method for a statement that returns nothing.
async function runRaw(statement: string) {
  const query = sql.raw(statement);
  if (databaseDialect() === 'postgres')
    await (database() as unknown as { execute: (q: typeof query) => Promise<unknown> }).execute(
      query,
    );
  else await database().run(query);
}

async function breakTable(table: string) {
  await runRaw(`alter table ${table} rename to ${table}_broken`);
  broken.push(table);
}

afterEach(async () => {
  for (const table of broken.splice(0))
    await runRaw(`alter table ${table}_broken rename to ${table}`);
});

async function expectInternalError(handler: unknown, request: Request, label: string) {
  let response: unknown;
  try {
    response = await (handler as Handler)({
      request,
      params: {},
      context: { clientIp: '1.2.3.4' },
    });
  } catch (thrown) {
    response = thrown;
  }
  expect(response, label).toBeInstanceOf(Response);
  const { status } = response as Response;
  const text = await (response as Response).text();
  expect(status, label).toBe(500);
  expect(JSON.parse(text), label).toMatchObject({
    success: false,
    message: 'Internal Server Error',
  });
  expect(text, label).not.toMatch(/SQLITE|no such table/i);
}

describe('every /api route, when the server fails', () => {
  it('answers a JSON 500 with the spec message', async () => {
    const user = await createUser({
      email: 'api-errors@example.com',
      name: 'Errors',
      password: 'long-enough-password',
    });
    const cookie = (await createSession(user.id)).split(';')[0]!;
    await breakTable('sessions');

    const post = (path: string, body: unknown) =>
      new Request(`http://localhost${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Cookie: cookie },
        body: JSON.stringify(body),
      });
    const get = (path: string) =>
      new Request(`http://localhost${path}`, { headers: { Cookie: cookie } });

    const cases: [unknown, Request, string][] = [
      [apiCourse.loader, get('/api/course?courseId=x'), 'GET /api/course'],
      [
        apiCourse.action,
        post('/api/course', { mainTopic: 'X', type: 'text', content: {} }),
        'POST /api/course',
      ],
      [apiCourses.loader, get('/api/courses'), '/api/courses'],
      [apiUpdate.action, post('/api/update', { courseId: 'x', content: {} }), '/api/update'],
      [apiFinish.action, post('/api/finish', { courseId: 'x' }), '/api/finish'],
      [
        apiSendCertificate.action,
        post('/api/sendcertificate', { courseId: 'x' }),
        '/api/sendcertificate',
      ],
      [apiGenerate.action, post('/api/generate', { prompt: 'hi' }), '/api/generate'],
      [apiPrompt.action, post('/api/prompt', { prompt: 'hi' }), '/api/prompt'],
      [apiImage.action, post('/api/image', { prompt: 'hi' }), '/api/image'],
      [apiYt.action, post('/api/yt', { prompt: 'hi' }), '/api/yt'],
      [apiTranscript.action, post('/api/transcript', { prompt: 'abcdefghijk' }), '/api/transcript'],
    ];
    for (const [handler, request, label] of cases)
      await expectInternalError(handler, request, label);
  });

  it('answers a JSON 500 for the public policies too', async () => {
    await breakTable('policies');
    await expectInternalError(
      apiPolicies.loader,
      new Request('http://localhost/api/policies'),
      '/api/policies',
    );
  });
});

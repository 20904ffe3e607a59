import type { ServerBuild } from '@remix-run/node';
import { describe, expect, it } from 'vitest';
import { apiMethodGuard } from './api-methods';

const route = (id: string, path: string | undefined, module: object, parentId = 'root') => ({
  [id]: { id, path, parentId, module },
});
const build = {
  routes: {
    root: { id: 'root', path: '', module: { loader() {} } },
    ...route('course', 'api/course', { loader() {}, action() {} }),
    ...route('prompt', 'api/prompt', { action() {} }),
    ...route('courses', 'api/courses', { loader() {} }),
    ...route('outline', 'api/outline/:outlineId', { loader() {}, action() {} }),
    ...route('document', 'api/document/:id', { loader() {} }),
    ...route('home', 'home', { loader() {} }),
  },
} as unknown as Pick<ServerBuild, 'routes'>;

describe('apiMethodGuard', () => {
  const refuse = apiMethodGuard(build);

  it('lets every method a route answers through, and every non-API path', () => {
    expect(refuse('GET', '/api/course')).toBeNull();
    expect(refuse('POST', '/api/course')).toBeNull();
    expect(refuse('POST', '/api/prompt')).toBeNull();
    expect(refuse('HEAD', '/api/courses')).toBeNull();
    expect(refuse('DELETE', '/home')).toBeNull();
  });

  it('answers an unknown API path 404 and a method the route lacks 405 with Allow', () => {
    expect(refuse('GET', '/api/nope')).toEqual({ status: 404, message: 'Not Found' });
    // `/api` itself is the API's too: JSON, not the HTML not-found page.
    expect(refuse('GET', '/api')).toEqual({ status: 404, message: 'Not Found' });
    expect(refuse('GET', '/apix')).toBeNull();
    expect(refuse('GET', '/api/prompt')).toEqual({
      status: 405,
      allow: 'POST',
      message: 'Method Not Allowed',
    });
    expect(refuse('DELETE', '/api/courses')).toMatchObject({ status: 405, allow: 'GET, HEAD' });
  });

  it('matches a path with a parameter by its pattern, one segment per parameter', () => {
    expect(refuse('POST', '/api/outline/abc123')).toBeNull();
    expect(refuse('GET', '/api/outline/abc123/')).toBeNull();
    expect(refuse('POST', '/api/document/abc123')).toMatchObject({
      status: 405,
      allow: 'GET, HEAD',
    });
    expect(refuse('GET', '/api/outline/abc/extra')).toEqual({ status: 404, message: 'Not Found' });
    expect(refuse('GET', '/api/outline')).toEqual({ status: 404, message: 'Not Found' });
  });

  it('never runs an action for a method other than POST', () => {
    expect(refuse('PUT', '/api/prompt')).toMatchObject({ status: 405, allow: 'POST' });
    expect(refuse('DELETE', '/api/course')).toMatchObject({
      status: 405,
      allow: 'GET, HEAD, POST',
    });
    expect(refuse('OPTIONS', '/api/prompt')).toMatchObject({ status: 405 });
  });
});

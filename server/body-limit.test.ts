import type { ServerBuild } from '@remix-run/node';
import { describe, expect, it } from 'vitest';
import {
  MATERIAL_MESSAGES,
  MAX_CREATE_FORM_BYTES,
  MAX_DOCUMENT_BYTES,
} from '../app/domain/material';
import type { RouteBodyLimit } from '../app/load-context';
import { answeringRoutes, checkBodySize, isPageFormPost } from './body-limit';

const CREATE_LIMIT: RouteBodyLimit = {
  bytes: MAX_CREATE_FORM_BYTES,
  tooLarge: MATERIAL_MESSAGES.tooLarge,
};
const COURSE_LIMIT: RouteBodyLimit = { bytes: 8 * 1024 * 1024 };

/** A build's routes as Remix lays them out: the root, pages and resource routes under it. */
function buildOf(
  routes: { id: string; path?: string; index?: boolean; parentId?: string; module: object }[],
): Pick<ServerBuild, 'routes'> {
  const component = () => null;
  const root = { id: 'root', path: '', module: { default: component } };
  return {
    routes: Object.fromEntries([
      ['root', root],
      ...routes.map((route) => [route.id, { parentId: 'root', ...route }]),
    ]) as ServerBuild['routes'],
  };
}

const page = { default: () => null };
const build = buildOf([
  { id: 'routes/create', path: 'create', module: { ...page, bodyLimit: CREATE_LIMIT } },
  { id: 'routes/index', index: true, module: page },
  { id: 'routes/course', path: 'api/course', module: { bodyLimit: COURSE_LIMIT } },
  { id: 'routes/outline', path: 'api/outline/:outlineId', module: {} },
  { id: 'routes/webhook', path: 'webhooks/paypal', module: {} },
  { id: 'routes/admin', path: 'admin', module: page },
  { id: 'routes/admin-users', path: 'users', parentId: 'routes/admin', module: page },
  { id: 'routes/not-found', path: '*', module: page },
]);
const routeOf = answeringRoutes(build);

describe('answeringRoutes', () => {
  it('gives every address a route answers on the limit that route declares', () => {
    // A browser with JavaScript posts /create's form to /create.data (single fetch): the issue
    // 35 defect was this address falling back to 1 MB.
    for (const path of ['/create', '/create.data', '/create/', '/CREATE.data', '/cr%65ate'])
      expect({ path, limit: routeOf(path).limit }).toEqual({ path, limit: CREATE_LIMIT });
    expect(routeOf('/api/course').limit).toEqual(COURSE_LIMIT);
    expect(routeOf('/api/course/').limit).toEqual(COURSE_LIMIT);
  });

  it('gives 1 MB to routes that declare nothing, and to addresses no route answers', () => {
    for (const path of ['/', '/_root.data', '/admin/users.data', '/api/outline/abc', '/nowhere'])
      expect({ path, bytes: routeOf(path).limit.bytes }).toEqual({ path, bytes: 1024 * 1024 });
  });

  it('tells pages from resource routes', () => {
    expect(routeOf('/create').page).toBe(true);
    expect(routeOf('/admin/users').page).toBe(true);
    expect(routeOf('/api/course').page).toBe(false);
    expect(routeOf('/webhooks/paypal').page).toBe(false);
  });
});

describe('isPageFormPost', () => {
  it('is a page posted without JavaScript, not its .data request nor a resource route', () => {
    expect(isPageFormPost('POST', '/create', routeOf('/create'))).toBe(true);
    expect(isPageFormPost('POST', '/create.data', routeOf('/create.data'))).toBe(false);
    expect(isPageFormPost('POST', '/api/course', routeOf('/api/course'))).toBe(false);
    expect(isPageFormPost('POST', '/webhooks/paypal', routeOf('/webhooks/paypal'))).toBe(false);
    expect(isPageFormPost('PUT', '/create', routeOf('/create'))).toBe(false);
  });
});

describe('checkBodySize', () => {
  const ordinary = routeOf('/api/signin').limit;

  it('accepts ordinary bodies and bodiless methods', () => {
    expect(checkBodySize('POST', ordinary, '120', undefined)).toEqual({ ok: true });
    expect(checkBodySize('GET', ordinary, undefined, 'chunked')).toEqual({ ok: true });
    expect(checkBodySize('POST', ordinary, undefined, undefined)).toEqual({ ok: true });
  });

  it('refuses a body over the limit with 413', () => {
    expect(checkBodySize('POST', ordinary, String(2 * 1024 * 1024), undefined)).toEqual({
      ok: false,
      status: 413,
      message: 'The request is too large (at most 1 MB)',
    });
  });

  it('lets whole courses through on the course routes', () => {
    expect(checkBodySize('POST', COURSE_LIMIT, String(5 * 1024 * 1024), undefined)).toEqual({
      ok: true,
    });
  });

  it('lets a document of up to 10 MB and its form through, and refuses more in the page’s words', () => {
    expect(MAX_CREATE_FORM_BYTES).toBeGreaterThanOrEqual(MAX_DOCUMENT_BYTES + 512 * 1024);
    const form = String(MAX_DOCUMENT_BYTES + 50_000);
    expect(checkBodySize('POST', CREATE_LIMIT, form, undefined)).toEqual({ ok: true });
    expect(checkBodySize('POST', CREATE_LIMIT, String(12 * 1024 * 1024), undefined)).toEqual({
      ok: false,
      status: 413,
      message: 'The document is too large: at most 10 MB',
    });
  });

  it('refuses a streamed body of unknown length with 411', () => {
    expect(checkBodySize('POST', ordinary, undefined, 'chunked')).toMatchObject({
      ok: false,
      status: 411,
    });
  });
});

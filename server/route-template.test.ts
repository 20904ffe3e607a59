import { describe, expect, it } from 'vitest';
import { routeTemplates } from './route-template';

const route = (id: string, path: string | undefined, parentId?: string, index = false) => ({
  id,
  path,
  parentId,
  index,
  module: {},
});

const templateOf = routeTemplates({
  routes: {
    root: route('root', ''),
    home: route('home', undefined, 'root', true),
    member: route('member', undefined, 'root'),
    course: route('course', 'course/:courseId', 'member'),
    status: route('status', 'status/course/:courseId', 'member'),
    healthz: route('healthz', 'healthz', 'root'),
  } as never,
});

describe('route templates for the metrics', () => {
  it('names the route, never the ids in the address', () => {
    expect(templateOf('/course/abc123')).toBe('/course/:courseId');
    expect(templateOf('/course/abc123.data')).toBe('/course/:courseId.data');
    expect(templateOf('/status/course/xyz')).toBe('/status/course/:courseId');
    expect(templateOf('/healthz')).toBe('/healthz');
    expect(templateOf('/')).toBe('/');
  });

  it('gives the built files and unknown paths one label each', () => {
    expect(templateOf('/assets/entry.client-abc.js')).toBe('/assets/*');
    expect(templateOf('/no/such/page/42')).toBe('unmatched');
  });
});

import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

/**
 * patches/ (applied by `npm install`'s postinstall, ADR 0025) make the server's route matching
 * work out once what used to be redone on every request. Node's own require loads the CommonJS
 * builds the server runs, not the ES builds Vite would pick for a test.
 */
const require = createRequire(import.meta.url);
const router = require('@remix-run/router') as typeof import('@remix-run/router');
const { createServerRoutes } = require('@remix-run/react/dist/routes.js') as {
  createServerRoutes: (...args: unknown[]) => unknown[];
};
const { createStaticRouter } = require('react-router-dom/server.js') as {
  createStaticRouter: (routes: unknown[], context: unknown) => { routes: unknown[] };
};

/** A route whose `path` counts how often it is read: the router reads it when it flattens. */
function countedRoute(path: string) {
  const route = {
    reads: 0,
    get path() {
      route.reads += 1;
      return path;
    },
  };
  return route;
}

describe('route matching on the server (patched router)', () => {
  it('flattens and ranks a routes array once, whatever paths it then matches', () => {
    const course = countedRoute('course/:courseId');
    const routes = [{ path: '/', children: [{ index: true }, course, { path: '*' }] }];

    expect(router.matchRoutes(routes, '/course/1')?.at(-1)?.params).toEqual({ courseId: '1' });
    const readsAfterFirst = course.reads;
    expect(router.matchRoutes(routes, '/course/2')?.at(-1)?.params).toEqual({ courseId: '2' });
    expect(router.matchRoutes(routes, '/elsewhere')?.at(-1)?.params).toEqual({ '*': 'elsewhere' });

    expect(readsAfterFirst).toBeGreaterThan(0);
    expect(course.reads).toBe(readsAfterFirst);
  });

  it("gives each caller matches of its own: one caller's changes never reach the next", () => {
    const routes = [{ path: '/', children: [{ path: 'course/:courseId' }] }];

    const first = router.matchRoutes(routes, '/course/7')!;
    // Loaders get params as a plain object, and some change it.
    (first[0]!.params as Record<string, string>).courseId = 'changed';
    first[1]!.pathname = '/changed';
    const second = router.matchRoutes(routes, '/course/7')!;

    expect(second.map((match) => [match.pathname, match.params])).toEqual([
      ['/', { courseId: '7' }],
      ['/course/7', { courseId: '7' }],
    ]);
    // As unpatched: the matches of one answer share one params object.
    expect(second[0]!.params).toBe(second[1]!.params);
    expect(second[0]!.params).not.toBe(first[0]!.params);
  });

  it('answers null for a path nothing matches, every time', () => {
    const routes = [{ path: '/only' }];
    expect(router.matchRoutes(routes, '/other')).toBeNull();
    expect(router.matchRoutes(routes, '/other')).toBeNull();
  });
});

describe('server rendering (patched Remix and React Router)', () => {
  const manifest = {
    root: { id: 'root', path: '', hasLoader: false, hasClientLoader: false },
    'routes/home': { id: 'routes/home', parentId: 'root', path: 'home', hasLoader: true },
  };
  const modules = { root: { default: () => null }, 'routes/home': { default: () => null } };
  const future = {};

  it("makes a build's routes once, though each request brings a new object of the same modules", () => {
    const first = createServerRoutes(manifest, { ...modules }, future, false);
    expect(createServerRoutes(manifest, { ...modules }, future, false)).toBe(first);

    const changed = { ...modules, 'routes/home': { default: () => null } };
    expect(createServerRoutes(manifest, changed, future, false)).not.toBe(first);
  });

  it('makes the data routes of a routes array once for every render', () => {
    const routes = createServerRoutes(manifest, modules, future, false);
    const context = { matches: [], basename: '/', location: { pathname: '/home' }, loaderData: {} };
    expect(createStaticRouter(routes, context).routes).toBe(
      createStaticRouter(routes, context).routes,
    );
  });
});

describe('the patched packages', () => {
  it('are pinned to the exact versions their patches were made for', async () => {
    const fs = await import('node:fs');
    const manifest = JSON.parse(fs.readFileSync('package.json', 'utf8')) as {
      dependencies: Record<string, string>;
      overrides?: Record<string, string>;
    };
    for (const patch of fs.readdirSync('patches')) {
      const [, name, version] = /^(.+)\+(\d+\.\d+\.\d+)\.patch$/.exec(patch)!;
      const packageName = name!.replace('+', '/');
      const pinned = manifest.overrides?.[packageName] ?? manifest.dependencies[packageName];
      expect(pinned, packageName).toBe(version);
    }
  });
});

import fs from 'node:fs';
import path from 'node:path';
import type { RouteConfigEntry } from '@remix-run/route-config';

/** A route of app/routes.ts: its full URL pattern ("/course/:courseId") and its module file. */
export interface AppRoute {
  id: string;
  pattern: string;
  file: string;
}

const APP_DIRECTORY = path.resolve('app');

/**
 * A route module that renders a page exports a component; a resource route does not, unless it
 * answers with an HTML document of its own (/api/docs).
 */
function rendersPage(file: string): boolean {
  const source = fs.readFileSync(path.join(APP_DIRECTORY, file), 'utf8');
  const component = /^export default\b|^export \{[^}]*\bdefault\b[^}]*\}/m; // or re-exported
  return component.test(source) || /'Content-Type': 'text\/html/.test(source);
}

function flatten(entries: RouteConfigEntry[], parent: string): AppRoute[] {
  return entries.flatMap((entry) => {
    const own = entry.path === undefined ? parent : `${parent}/${entry.path}`;
    const pattern = own === '' ? '/' : own.replace(/\/+/g, '/');
    const children = entry.children ? flatten(entry.children, own) : [];
    // A layout without a path (the admin layout) is a frame for its children, not a page.
    const itself =
      entry.path === undefined && !entry.index
        ? []
        : [{ id: entry.id ?? entry.file, pattern, file: entry.file }];
    return [...itself, ...children];
  });
}

/**
 * Every route of app/routes.ts, read the way the Remix build reads it (the route config with its
 * flat-route folders resolved against app/), so a new route file is here by its file alone.
 */
async function appRoutes(): Promise<AppRoute[]> {
  // What the Remix Vite plugin sets before it evaluates routes.ts (flatRoutes resolves against it).
  (globalThis as { __remixAppDirectory?: string }).__remixAppDirectory = APP_DIRECTORY;
  const config = (await import('~/routes')).default as RouteConfigEntry[];
  return flatten(config, '');
}

/** The routes that render a page (HTML with the app's document), not a resource. */
export async function pageRoutes(): Promise<AppRoute[]> {
  return (await appRoutes()).filter((route) => rendersPage(route.file));
}

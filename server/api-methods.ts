import type { ServerBuild } from '@remix-run/node';

export type ApiMethodRefusal = { status: 404 | 405; allow?: string; message: string };

/**
 * For `/api/*` paths: which methods each route answers, read once from the build's route
 * modules (a loader answers GET and HEAD, an action POST). Remix would answer an unknown
 * API path with the HTML not-found page and a wrong method with an HTML error and a logged
 * stack trace; an API client gets a short JSON answer instead.
 */
export function apiMethodGuard(build: Pick<ServerBuild, 'routes'>) {
  const fullPath = (id: string): string => {
    const route = build.routes[id];
    if (!route) return '';
    const parent = route.parentId ? fullPath(route.parentId) : '';
    return route.path ? `${parent}/${route.path}` : parent;
  };
  type Methods = { loader: boolean; action: boolean };
  const methods = new Map<string, Methods>();
  // Paths with a parameter (`/api/outline/:outlineId`): one segment for each `:name`.
  const patterns: { pattern: RegExp; methods: Methods }[] = [];
  for (const [id, route] of Object.entries(build.routes)) {
    const path = fullPath(id);
    if (!route || !path.startsWith('/api/') || path.includes('*')) continue;
    const answers = { loader: Boolean(route.module.loader), action: Boolean(route.module.action) };
    if (!path.includes(':')) methods.set(path, answers);
    else {
      const segments = path
        .split('/')
        .map((segment) =>
          segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
        );
      patterns.push({ pattern: new RegExp(`^${segments.join('/')}$`), methods: answers });
    }
  }

  return function refuse(method: string, path: string): ApiMethodRefusal | null {
    // `/api` itself too: an API client's typo gets JSON, not the HTML not-found page.
    if (path !== '/api' && !path.startsWith('/api/')) return null;
    const trimmed = path.replace(/\/+$/, '');
    const route =
      methods.get(trimmed) ?? patterns.find(({ pattern }) => pattern.test(trimmed))?.methods;
    if (!route) return { status: 404, message: 'Not Found' };
    // Reads go to the loader, POST to the action; any other method (PUT, DELETE, OPTIONS that
    // is no CORS preflight...) is refused here rather than run as the action.
    const reading = method === 'GET' || method === 'HEAD';
    if (reading ? route.loader : method === 'POST' && route.action) return null;
    const allow = [...(route.loader ? ['GET', 'HEAD'] : []), ...(route.action ? ['POST'] : [])];
    return { status: 405, allow: allow.join(', '), message: 'Method Not Allowed' };
  };
}

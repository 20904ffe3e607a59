import type { ServerBuild } from '@remix-run/node';
import { matchRoutes } from '@remix-run/react';
import { routePathOf, routeTree } from './body-limit';

/**
 * The template of the route that answers a path (`/course/:courseId`), matched as Remix matches
 * it, for the metrics' `route` label (ADR 0056): a label never carries a raw URL, whose ids
 * would make a series per course and could name a member. The browser's built files are one
 * label; a path no route answers is `unmatched`.
 */
export function routeTemplates(build: Pick<ServerBuild, 'routes'>): (pathname: string) => string {
  const tree = routeTree(build.routes);
  return (pathname) => {
    if (pathname.startsWith('/assets/')) return '/assets/*';
    const matches = matchRoutes(tree, routePathOf(pathname));
    if (!matches?.length) return 'unmatched';
    const segments = matches.flatMap(({ route }) => (route.path ? [route.path] : []));
    const template = `/${segments.join('/')}`.replace(/\/{2,}/g, '/');
    return pathname.endsWith('.data') ? `${template}.data` : template;
  };
}

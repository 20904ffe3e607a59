import type { ServerBuild } from '@remix-run/node';
import { matchRoutes } from '@remix-run/react';
import type { RouteBodyLimit } from '../app/load-context';

const DEFAULT_LIMIT: RouteBodyLimit = { bytes: 1024 * 1024 };

type RouteNode = { id: string; path?: string; caseSensitive?: boolean } & (
  { index: true; children?: undefined } | { index?: false; children: RouteNode[] }
);

type BuildRoute = NonNullable<ServerBuild['routes'][string]>;

/** The build's routes as the nested tree Remix matches requests against. */
export function routeTree(routes: ServerBuild['routes'], parentId?: string): RouteNode[] {
  return Object.values(routes)
    .filter((route): route is BuildRoute => route !== undefined && route.parentId === parentId)
    .map((route) => ({
      id: route.id,
      path: route.path,
      caseSensitive: route.caseSensitive,
      ...(route.index
        ? { index: true as const }
        : { index: false as const, children: routeTree(routes, route.id) }),
    }));
}

/**
 * The path whose route answers a request. With single fetch, a browser with JavaScript posts a
 * form for `/create` to `/create.data` (and for `/` to `/_root.data`): Remix's own rewrite
 * (@remix-run/server-runtime, server.js), done here the same way.
 */
export function routePathOf(pathname: string): string {
  return pathname.endsWith('.data')
    ? pathname.replace(/\.data$/, '').replace(/^\/_root$/, '/')
    : pathname;
}

/** What the web server needs of the route that will answer a request. */
export interface AnsweringRoute {
  limit: RouteBodyLimit;
  /** The route renders a page (it has a component), rather than answering as a resource. */
  page: boolean;
}

/**
 * For each request, the route that will answer it, matched as Remix matches it (its `.data`
 * address, letter case, a trailing slash and percent-encoding included): its `bodyLimit` export
 * applies, else 1 MB. A limit belongs to a route, so no address of that route can miss it.
 */
export function answeringRoutes(
  build: Pick<ServerBuild, 'routes'>,
): (pathname: string) => AnsweringRoute {
  const tree = routeTree(build.routes);
  return (pathname) => {
    const matches = matchRoutes(tree, routePathOf(pathname));
    const id = matches?.[matches.length - 1]?.route.id;
    const module = id ? build.routes[id]?.module : undefined;
    return {
      limit: (module as { bodyLimit?: RouteBodyLimit } | undefined)?.bodyLimit ?? DEFAULT_LIMIT,
      page: Boolean(module?.default),
    };
  };
}

/** Requests of these methods carry no body to limit (and no route is looked up for them). */
export const carriesBody = (method: string) =>
  !['GET', 'HEAD', 'OPTIONS'].includes(method.toUpperCase());

export type BodyVerdict = { ok: true } | { ok: false; status: 411 | 413; message: string };

const megabytes = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

/**
 * Bodies are read whole into memory by the routes, so their size is checked
 * before: a declared length over the route's limit is refused, and so is a
 * body of undeclared length (browsers and ordinary clients always declare it).
 */
export function checkBodySize(
  method: string,
  limit: RouteBodyLimit,
  contentLength: string | undefined,
  transferEncoding: string | undefined,
): BodyVerdict {
  if (!carriesBody(method)) return { ok: true };
  if (contentLength === undefined) {
    return transferEncoding
      ? { ok: false, status: 411, message: 'Please send the body with a Content-Length' }
      : { ok: true };
  }
  const length = Number(contentLength);
  if (!Number.isFinite(length) || length > limit.bytes) {
    return {
      ok: false,
      status: 413,
      message: limit.tooLarge ?? `The request is too large (at most ${megabytes(limit.bytes)})`,
    };
  }
  return { ok: true };
}

/**
 * A page's own form, posted by a browser without JavaScript, which shows whatever comes back: its
 * refusal is best shown by the page itself, not as JSON. The page's JavaScript posts to the
 * `.data` address and reads the answer as data; resource routes (the API, webhooks) answer JSON.
 */
export function isPageFormPost(method: string, pathname: string, route: AnsweringRoute): boolean {
  return method.toUpperCase() === 'POST' && route.page && routePathOf(pathname) === pathname;
}

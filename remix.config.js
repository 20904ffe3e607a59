// Remix's own options. vite.config.ts imports this file so that the future
// flags live in one place and the move to React Router 7 stays mechanical.
// With v3_routeConfig the route files are listed by app/routes.ts.
/** @type {import('@remix-run/dev').VitePluginConfig} */
export default {
  future: {
    v3_fetcherPersist: true,
    v3_relativeSplatPath: true,
    v3_throwAbortReason: true,
    // Off: every route is in the first page's manifest (ADR 43). Discovering a link's route when
    // it was clicked could be cut short on a busy machine and leave a blank "Loading..." page.
    v3_lazyRouteDiscovery: false,
    v3_singleFetch: true,
    v3_routeConfig: true,
  },
};

import type { ServerBuild } from '@remix-run/node';
import { createWebServer } from './app';
import { reportedRestarts } from './restarts';
import { stopOnSignals } from './stop';

/**
 * The development web process (`npm run dev` runs it through the start): the same web server
 * as production (server/app.ts), with Vite's dev middleware serving the browser's files and the
 * app built on the fly, so every rule of the server (headers, body limits, write turns) is
 * exercised while developing (ADR 0028).
 */
const vite = await import('vite').then(({ createServer }) =>
  createServer({ server: { middlewareMode: true }, appType: 'custom' }),
);
const build = () => vite.ssrLoadModule('virtual:remix/server-build') as Promise<ServerBuild>;
const { server, hooks } = await createWebServer({
  build,
  serveClientFiles: (app) => app.use(vite.middlewares),
  restarts: reportedRestarts,
});
stopOnSignals(server, hooks);
server.on('close', () => void vite.close());
server.listen(hooks.config.port, () =>
  hooks.log.info('web.ready', { port: hooks.config.port, pid: process.pid, mode: 'development' }),
);

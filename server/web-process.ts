import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ServerBuild } from '@remix-run/node';
import { startTracing } from './tracing';

/**
 * A production web process: the compiled Remix build behind the web server (server/app.ts).
 * The start (or `npm run start:web`) runs WEB_CONCURRENCY of them on one port (ADR 0016); run on
 * its own, this is a single one. It lives in `build/bin/`, beside the build it serves. With
 * traces asked for (ADR 0064) their SDK starts before the server and the app are imported, so
 * that HTTP, pg and ioredis are instrumented.
 */
const buildDir = fileURLToPath(new URL('..', import.meta.url));

async function main() {
  const tracing = await startTracing('coursegen-web');
  const [{ createWebServer }, { publicFiles }, { reportedRestarts }, { stopOnSignals }] =
    await Promise.all([
      import('./app'),
      import('./public-files'),
      import('./restarts'),
      import('./stop'),
    ]);
  const build = (await import(
    pathToFileURL(path.join(buildDir, 'server/index.js')).href
  )) as ServerBuild;
  const client = path.join(buildDir, 'client');
  const { server, hooks } = await createWebServer({
    build,
    serveClientFiles: (app) => {
      app.use(
        '/assets',
        publicFiles(path.join(client, 'assets'), { immutable: true, maxAge: '1y' }),
      );
      app.use(publicFiles(client, { maxAge: '1h' }));
    },
    restarts: reportedRestarts,
    tracing,
  });
  stopOnSignals(server, hooks, tracing);
  server.listen(hooks.config.port, () =>
    hooks.log.info('web.ready', { port: hooks.config.port, pid: process.pid }),
  );
}

main().catch((error: unknown) => {
  console.error('[coursegen] the web process could not start:', error);
  process.exit(1);
});

import http from 'node:http';
import { dependencyHealth } from '~/utils/health.server';
import { env } from '~/utils/env.server';
import { log } from '~/utils/logger.server';
import { carriesMetricsToken, METRICS_CONTENT_TYPE, registry } from '~/utils/metrics.server';
import { askNodeMetrics } from '~/utils/node-metrics.server';

/**
 * On a worker-only node (PROCESSES=worker) nothing else listens on PORT, so the worker answers
 * GET /healthz there itself (ADR 0045): the Docker image's one health check then fits every
 * node; with METRICS_TOKEN set it answers GET /metrics there too. Healthy when its queue workers run and the database and Redis answer, as a web
 * process's /healthz; nothing answers while the worker starts, hangs or is gone.
 */
export function serveWorkerHealth(port: number, running: () => boolean): http.Server {
  const server = http.createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://worker').pathname;
    if (path === '/metrics' && env().METRICS_TOKEN && request.method === 'GET') {
      // The node's metrics, as a web process answers them (ADR 0056).
      if (!carriesMetricsToken(request.headers.authorization, env().METRICS_TOKEN ?? '')) {
        response.writeHead(401, { 'WWW-Authenticate': 'Bearer' }).end();
        return;
      }
      void (async () => (await askNodeMetrics()) ?? (await registry.metrics()))().then((text) =>
        response
          .writeHead(200, { 'Content-Type': METRICS_CONTENT_TYPE, 'Cache-Control': 'no-store' })
          .end(text),
      );
      return;
    }
    if (path !== '/healthz' || (request.method !== 'GET' && request.method !== 'HEAD')) {
      response.writeHead(404, { 'Content-Type': 'application/json' }).end('{"status":"not found"}');
      return;
    }
    void dependencyHealth().then(({ database, redis }) => {
      const worker = running() ? 'ok' : 'down';
      const ok = database === 'ok' && redis === 'ok' && worker === 'ok';
      const body = JSON.stringify({
        status: ok ? 'ok' : 'degraded',
        database,
        redis,
        worker,
        pid: process.pid,
      });
      response
        .writeHead(ok ? 200 : 503, {
          'Content-Type': 'application/json',
          'Cache-Control': 'no-store',
        })
        .end(request.method === 'HEAD' ? undefined : body);
    });
  });
  server.on('error', (error) => log.error('worker.health_failed', { port, error }));
  server.listen(port, () => log.info('worker.health_ready', { port, pid: process.pid }));
  return server;
}

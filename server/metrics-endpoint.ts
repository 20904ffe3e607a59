import type { IncomingMessage, ServerResponse } from 'node:http';
import type { WebServerHooks } from '../app/load-context';

const REFUSED = JSON.stringify({
  success: false,
  message: 'The metrics need the bearer token METRICS_TOKEN',
});

/**
 * GET /metrics for Prometheus (ADR 0056), answered by the http server before Express: the node's
 * metrics, for the bearer of METRICS_TOKEN only; without METRICS_TOKEN set the path is not
 * served (the app's 404). Returns false for any other request.
 */
export function metricsEndpoint(metrics: WebServerHooks['metrics'], log: WebServerHooks['log']) {
  return function answerMetrics(req: IncomingMessage, res: ServerResponse): boolean {
    const url = req.url ?? '/';
    if (url !== '/metrics' && !url.startsWith('/metrics?')) return false;
    if (!metrics.served()) return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ success: false, message: 'Method Not Allowed' }));
      return true;
    }
    if (!metrics.authorized(req.headers.authorization)) {
      res.writeHead(401, { 'WWW-Authenticate': 'Bearer', 'Content-Type': 'application/json' });
      res.end(REFUSED);
      return true;
    }
    metrics.text().then(
      (text) => {
        res.writeHead(200, { 'Content-Type': metrics.contentType, 'Cache-Control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        log.error('metrics.failed', { error });
        res.writeHead(500, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ success: false, message: 'Internal Server Error' }));
      },
    );
    return true;
  };
}

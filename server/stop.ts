import type http from 'node:http';
import type { WebServerHooks } from '../app/load-context';
import type { Tracing } from './tracing';

/**
 * On SIGTERM or SIGINT a web process stops accepting, lets the requests in flight finish, ends
 * the event streams browsers reopen by themselves (they reconnect to another process, or to
 * this one restarted) and exits; SHUTDOWN_TIMEOUT_MS bounds the rest. Idle keep-alive sockets
 * are closed, or they would hold close() open. With traces on, the spans not yet sent go first.
 */
export function stopOnSignals(server: http.Server, hooks: WebServerHooks, tracing?: Tracing) {
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    server.close(() => {
      if (!tracing) process.exit(0);
      void tracing.shutdown().finally(() => process.exit(0));
    });
    server.closeIdleConnections();
    hooks.closeReconnectableStreams();
    setTimeout(() => process.exit(0), hooks.config.shutdownTimeoutMs).unref();
  };
  // `on`, not `once`: the same signal may arrive twice (process group and the start).
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
  // The start that ran it is gone without stopping it (SIGKILL): stop rather than run orphaned.
  if (process.channel) process.on('disconnect', stop);
}

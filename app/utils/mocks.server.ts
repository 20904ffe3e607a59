import { setupServer } from 'msw/node';
import { handlersFor } from '../../mocks';
import { env } from './env.server';
import { log } from './logger.server';
import { singleton } from './singleton.server';

/**
 * In demo mode, vendors without keys are answered by the HTTP mocks in
 * `mocks/`, so the real SDKs run offline. Called once by the web server and
 * once by the worker. Outside demo mode nothing is intercepted.
 */
export function startVendorMocks() {
  const { demo, mocked } = env();
  if (!demo) return;
  singleton('vendor-mocks', () => {
    const server = setupServer(...handlersFor(mocked));
    server.listen({ onUnhandledRequest: 'bypass' });
    log.info('demo.mocks_started', {
      vendors: Object.entries(mocked)
        .filter(([, on]) => on)
        .map(([vendor]) => vendor),
    });
    return server;
  });
}

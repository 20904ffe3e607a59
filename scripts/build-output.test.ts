import { build, createLogger, type Logger } from 'vite';
import { expect, it } from 'vitest';

/**
 * `npm run build` says only what needs attention (issue 35, item 11a: it printed 63 "Generated an
 * empty chunk" warnings, one per resource route). The browser bundle is built in memory, with the
 * project's Vite config, and every warning collected.
 */
it('builds the browser bundle without a warning', async () => {
  const warnings: string[] = [];
  const logger = createLogger('warn');
  const collecting: Logger = {
    ...logger,
    warn: (message) => warnings.push(message),
    warnOnce: (message) => warnings.push(message),
  };
  await build({
    configFile: 'vite.config.ts',
    logLevel: 'warn',
    customLogger: collecting,
    build: { write: false },
  });
  expect(warnings).toEqual([]);
}, 180_000);

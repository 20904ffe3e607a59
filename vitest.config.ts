import { defineConfig } from 'vitest/config';
import tsconfigPaths from 'vite-tsconfig-paths';

// Three projects: unit tests beside their modules, integration tests against
// the real Redis and a fresh SQLite file, and browser tests in headless Chromium.
export default defineConfig({
  plugins: [tsconfigPaths()],
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: [
            'app/**/*.test.{ts,tsx}',
            'db/**/*.test.ts',
            'jobs/**/*.test.ts',
            'mocks/**/*.test.ts',
            'scripts/**/*.test.ts',
            'server/**/*.test.ts',
          ],
          environment: 'node',
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          setupFiles: ['tests/support/integration-setup.ts'],
          // Tests start the compiled app and worker, as production runs them.
          globalSetup: ['tests/support/built.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/support/built.ts', 'tests/support/e2e-global-setup.ts'],
          testTimeout: 90_000,
          hookTimeout: 120_000,
          fileParallelism: false,
        },
      },
    ],
  },
});

import { defineConfig } from 'vitest/config';
import tsconfigPaths from 'vite-tsconfig-paths';

const POSTGRES_INTEGRATION_TESTS = [
  'accounts',
  'accounts-errors',
  'account-deletion',
  'admin',
  'ai-rate-limit',
  'api-contract',
  'api-errors',
  'api-tokens',
  'authoring',
  'availability',
  'billing-demo-providers',
  'billing-paypal',
  'billing-reconcile',
  'billing-return-address',
  'billing-webhooks',
  'certificate-email-crash',
  'certificates',
  'contact',
  'course-api',
  'course-paging',
  'brand-settings',
  'course-paging-http',
  'course-pipeline',
  'dashboard',
  'data-export',
  'data-ownership',
  'database-busy',
  'durable-mail',
  'email',
  'export',
  'fair-queues',
  'flashcards',
  'grounded-practice',
  'languages',
  'lesson-media',
  'long-poll',
  'lost-jobs',
  'notes-regenerate',
  'lesson-editing',
  'original-client-flow',
  'outline-lessons',
  'plan-settings',
  'plans-api',
  'provider-plans',
  'queue-factory',
  'quiz',
  'quiz-editing',
  'rate-limit-fallback',
  'scorm-export',
  'seed',
  'share',
  'stream-tutor',
  'tracing',
  'upgrade',
  'worker',
  'worker-crash',
];

// Five projects: unit tests beside their modules, integration tests against the real Redis and
// a fresh SQLite file, the same again on PostgreSQL, the newcomer tier, and browser tests in
// headless Chromium (docs/testing.md).
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
          // Vitest's 5 s is too tight for the few that compile or render on a busy 2-core
          // machine running the other test run beside them.
          testTimeout: 30_000,
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
        // The integration tests whose subject is data, a second time, each file on a fresh
        // PostgreSQL database (tests/support/integration-setup.ts; the workers they start use it
        // too): the same functions, the other database. Not listed: files about the SQLite file
        // itself, the start-up and the processes, whose database is incidental.
        extends: true,
        test: {
          name: 'integration-postgres',
          include: POSTGRES_INTEGRATION_TESTS.map((name) => `tests/integration/${name}.test.ts`),
          env: { COURSEGEN_TEST_DATABASE: 'postgres' },
          setupFiles: ['tests/support/integration-setup.ts'],
          globalSetup: ['tests/support/built.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
        },
      },
      {
        // The newcomer tier: what the README and docs/ say, done the way a person does it (a
        // fresh clone, the compose file's setup, every page on a phone, real uploads through the
        // page).
        extends: true,
        test: {
          name: 'newcomer',
          include: ['tests/newcomer/**/*.test.ts'],
          globalSetup: ['tests/support/built.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
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

import { defineConfig } from 'knip/config';

/**
 * `npm run lint` runs knip: a file nothing reaches, an export nothing imports, or a package
 * nothing uses fails it (ADR 0053). The Remix, vitest and drizzle plugins find the routes
 * (app/routes, listed by app/routes.ts), the test files and their setup; the entries below are
 * the rest of what runs on its own.
 */
export default defineConfig({
  entry: [
    'app/routes.ts',
    // What the build bundles for plain node (scripts/build.ts), and the development server.
    'scripts/*.{ts,mjs}',
    'server/web-process.ts',
    'server/dev.ts',
    'jobs/main.ts',
    'app/**/*-thread.server.ts',
    // Benchmarks, run with tsx; the bare handlers are started as processes of their own by them.
    'bench/*.ts',
    'bench/lib/bare-courses-models.ts',
    'bench/lib/bare-courses-server.ts',
    // Started as its own processes by a test (billing-demo-providers).
    'tests/support/demo-checkouts.ts',
    // Given to the app's processes by path (`--import`, then `register`) by the tracing test.
    'tests/support/opentelemetry-loads*.mjs',
    // drizzle-kit's configurations (npm run db:generate).
    'drizzle.{sqlite,postgres}.config.ts',
  ],
  project: ['**/*.{ts,tsx,js,mjs}'],
  // Served as they are: the SCORM package's runtime, copied into each export.
  ignore: ['public/**'],
  ignoreDependencies: [
    // Read from node_modules by path: the accessibility check injects axe's browser build, the
    // LMS stand-in serves scorm-again's.
    'axe-core',
    'scorm-again',
    // Installed through the overrides (the patched router); a test checks the patches hold.
    '@remix-run/router',
    'react-router-dom',
  ],
  // System programs the scripts and tests run, not packages.
  ignoreBinaries: ['redis-server', 'apt-get', 'unshare', 'psql'],
  rules: { duplicates: 'error' },
});

import js from '@eslint/js';
import react from 'eslint-plugin-react';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The layers (docs/architecture.md, "Layers"): routes -> services -> models -> db;
 * services -> vendor adapters (app/services/vendors); jobs' processors ->
 * services; components and app/browser run in the browser too and take nothing
 * of the server but types. Each group below lists what its files may not
 * import, so a backwards import fails `npm run lint`.
 */
const VENDOR_SDKS = [
  '@anthropic-ai/sdk',
  '@paypal/paypal-server-sdk',
  'razorpay',
  'nodemailer',
  'openai',
];
const layer = (name, paths) => ({ group: paths, message: `${name} must not import this layer.` });
// The same, where the layer's types are shared (a row's shape a component renders).
const layerValues = (name, paths) => ({
  group: paths,
  allowTypeImports: true,
  message: `${name} may import only types from this layer.`,
});
// Package names exactly (and their subpaths), so that e.g. mocks/razorpay is not one.
const vendors = {
  regex: `^(${VENDOR_SDKS.join('|')})(/.*)?$`,
  message: 'Only vendor adapters (app/services/vendors) import vendor SDKs.',
};
const routes = ['~/routes/*', '**/routes/*', '~/root', '**/root'];
const jobs = ['**/jobs/*', '**/jobs/**'];
const services = ['~/services/*', '~/services/**', '**/services/*', '**/services/**'];
const queues = ['~/queues/*', '**/queues/*'];
const models = ['~/models/*', '**/models/*'];
const serverOnly = ['**/*.server', '~/utils/*.server'];
// The schema's types (plan, role, course type) are shared; its tables are not: queries take them
// from the data layer's `tables`, which are PostgreSQL's on PostgreSQL (ADR 0039).
const schemaValues = {
  group: ['**/db/schema', '**/db/schema.pg', '**/db/tables', '**/db/dialects'],
  allowTypeImports: true,
  message: "Only types of the schema: queries use `tables` from '~/utils/database.server'.",
};
/**
 * Routes reach models for reads only (ADR 0051): a loader showing a row needs no service to pass
 * it along, but every write goes through a service, where its rules live (who may, limits, the
 * audit log, the jobs and mail it starts). Lint cannot tell a read from a write, so the reads a
 * route may import are listed here: a new one is added to the list, a write never is.
 * Types are free.
 */
const ROUTE_MODEL_READS = [
  'courseOutline',
  'courseProgress',
  'courseStatus',
  'dashboardFigures',
  'documentIdOfCourse',
  'emailChangeFor',
  'getCertificateByPublicId',
  'getCompletion',
  'getCourseForUser',
  'getDocumentForUser',
  'getLessonOfCourse',
  'getOutboxEmailFor',
  'getOutlineForUser',
  'getPolicies',
  'getPolicy',
  'getPublicPolicies',
  'getPublicPolicy',
  'isResetTokenUsable',
  'listAdmins',
  'listAudit',
  'listContacts',
  'listCourses',
  'listOutbox',
  'listRecentSubscriptions',
  'listUsers',
  'outlineStatus',
  'parseCredit',
  'pendingEmailChange',
  'quizSummariesOfUser',
  'statusOfLessons',
  'toPublicUser',
];
const modelReadsOnly = {
  group: models,
  allowImportNames: ROUTE_MODEL_READS,
  allowTypeImports: true,
  message:
    'A route writes through a service and reads a model only with a listed read (ROUTE_MODEL_READS in eslint.config.js, ADR 0051).',
};
const restrict = (...patterns) => ({
  '@typescript-eslint/no-restricted-imports': ['error', { patterns }],
});

export default tseslint.config(
  { ignores: ['build/', 'node_modules/', 'data/', '.cache/', 'tests/.tmp/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      ecmaVersion: 'latest',
      sourceType: 'module',
      globals: { ...globals.browser, ...globals.node },
    },
    settings: { react: { version: 'detect' } },
    plugins: { react, 'react-hooks': reactHooks },
    rules: {
      ...react.configs.recommended.rules,
      ...react.configs['jsx-runtime'].rules,
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'warn',
      'react/prop-types': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  {
    // Type-aware: every model call is async (ADR 0039), and a forgotten await (a query that
    // runs after the response, or a Promise taken for a row) must fail lint, not production.
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      '@typescript-eslint/no-misused-promises': [
        'error',
        { checksVoidReturn: { arguments: false, attributes: false } },
      ],
    },
  },
  { files: ['app/**', 'jobs/**', 'db/**'], rules: restrict(vendors) },
  {
    files: ['app/routes/**', 'app/root.tsx'],
    rules: restrict(vendors, layer('A route', jobs), schemaValues, modelReadsOnly),
  },
  {
    // The /api edge the api routes share (ADR 0035): the contract, its OpenAPI document, helpers.
    files: ['app/api/**'],
    rules: restrict(
      vendors,
      layer('The API edge', [...routes, ...jobs]),
      schemaValues,
      modelReadsOnly,
    ),
  },
  {
    files: ['app/services/**'],
    ignores: ['app/services/vendors/**'],
    rules: restrict(vendors, layer('A service', [...routes, ...jobs]), schemaValues),
  },
  {
    files: ['app/services/vendors/**'],
    rules: restrict(layer('A vendor adapter', [...routes, ...jobs, ...queues])),
  },
  {
    files: ['app/models/**'],
    rules: restrict(
      vendors,
      layer('A model', [...routes, ...jobs, ...services, ...queues]),
      schemaValues,
    ),
  },
  {
    files: ['app/queues/**'],
    rules: restrict(vendors, layer('A queue', [...routes, ...jobs, ...services, ...models])),
  },
  {
    files: ['app/utils/**'],
    rules: restrict(
      vendors,
      layer('A util', [...routes, ...jobs, ...services, ...queues]),
      schemaValues,
    ),
  },
  {
    // The data layer is where the tables come from.
    files: ['app/utils/database.server.ts'],
    rules: restrict(vendors, layer('A util', [...routes, ...jobs, ...services, ...queues])),
  },
  {
    files: ['app/domain/**'],
    rules: restrict(
      vendors,
      layer('The domain (browser-safe rules)', [
        ...routes,
        ...jobs,
        ...services,
        ...queues,
        ...models,
        ...serverOnly,
      ]),
      schemaValues,
    ),
  },
  {
    // Shared UI, rendered in the browser too: the data comes in through props from a route's
    // loader, so a component takes only types from the server's layers.
    files: ['app/components/**'],
    rules: restrict(
      vendors,
      layerValues('A component', [...jobs, ...services, ...queues, ...models, ...serverOnly]),
      schemaValues,
    ),
  },
  {
    // Runs in the browser (hooks, the logic of interactive components): nothing of the server.
    files: ['app/browser/**'],
    rules: restrict(
      vendors,
      layer('Browser code', [...routes, ...jobs, ...services, ...queues, ...models, ...serverOnly]),
      schemaValues,
    ),
  },
  { files: ['jobs/**'], rules: restrict(vendors, layer('A job', routes), schemaValues) },
  { files: ['mocks/**'], rules: restrict(schemaValues) },
  {
    // The web server takes the app from the build it serves (ADR 0028): importing an app module
    // would load a second copy of it in the web process. Types are free.
    files: ['server/**'],
    // Tests are not loaded by the web process: they may check the server against the app.
    ignores: ['server/**/*.test.ts'],
    rules: restrict({
      group: ['~/*', '~/**', '**/app/*', '**/app/**', '**/db/*', '**/jobs/*', '**/jobs/**'],
      allowTypeImports: true,
      message: 'The web server imports no app module (only types): take it from the build.',
    }),
  },
);

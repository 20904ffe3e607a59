import { coursesApi } from '~/api/courses-api.server';

/** GET /api/courses (see app/api/courses-api.server.ts, which the express server also calls). */
export const loader = coursesApi.loader;

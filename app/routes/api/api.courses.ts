import { coursesApi } from '../courses-api.server';

/** GET /api/courses (see ../courses-api.server.ts, which the express server also calls). */
export const loader = coursesApi.loader;

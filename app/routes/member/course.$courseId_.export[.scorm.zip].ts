import type { LoaderFunctionArgs } from '@remix-run/node';
import { scormRouteResponse } from '~/services/export/scorm.server';

/**
 * GET /course/:courseId/export.scorm.zip: the finished course as a SCORM 1.2 package for an LMS,
 * for its owner on a paid plan (ADR 34).
 */
export function loader({ request, params }: LoaderFunctionArgs) {
  return scormRouteResponse(request, params.courseId);
}

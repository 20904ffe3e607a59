import type { LoaderFunctionArgs } from '@remix-run/node';
import { exportRouteResponse } from '~/services/export/export.server';

/** GET /course/:courseId/export.md: the whole course as one Markdown file, for its owner. */
export function loader({ request, params }: LoaderFunctionArgs) {
  return exportRouteResponse(request, params.courseId, 'md');
}

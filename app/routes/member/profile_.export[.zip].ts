import type { LoaderFunctionArgs } from '@remix-run/node';
import { dataExportResponse, startDataExport } from '~/services/export/member-export.server';
import { requireUser } from '~/utils/auth.server';

/**
 * GET /profile/export.zip: "Export my data", everything of the signed-in member in one zip,
 * streamed as it is made (ADR 0060). A third export while two are under way: 429, Retry-After.
 */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const started = await startDataExport(user, request);
  if (!started.ok)
    return new Response(started.message, {
      status: started.status,
      headers: {
        'Retry-After': String(started.retryAfterSeconds),
        'Content-Type': 'text/plain; charset=utf-8',
        'Cache-Control': 'no-store',
      },
    });
  return dataExportResponse(started.value.filename, started.value.body);
}

import type { LoaderFunctionArgs } from '@remix-run/node';
import { dataExportResponse, startDataExport } from '~/services/export/member-export.server';
import { requireApiUser } from '~/utils/auth.server';
import { failureJson, guardApi } from '~/utils/responses.server';

/** GET /api/export: the caller's whole data export, the zip /profile gives (ADR 0060). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  return guardApi('export', async () => {
    const user = await requireApiUser(request, context);
    const started = await startDataExport(user, request);
    if (!started.ok) return failureJson(started);
    return dataExportResponse(started.value.filename, started.value.body);
  });
}

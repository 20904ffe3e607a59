import type { LoaderFunctionArgs } from '@remix-run/node';
import { receiptDownload } from '~/services/billing/member-receipts.server';
import { requireUser } from '~/utils/auth.server';

/** GET /receipts/:number.pdf: one of the member's own receipts, rendered on the server. */
export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const number = Number(params.number);
  const result = Number.isSafeInteger(number) ? await receiptDownload(user, number) : undefined;
  if (!result?.ok) throw new Response('Not Found', { status: 404 });
  return new Response(new Uint8Array(result.value.pdf), {
    headers: {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `attachment; filename="${result.value.filename}"`,
      'Cache-Control': 'private, no-store',
    },
  });
}

import { guardApi } from '~/utils/responses.server';
import { API, apiJson } from '~/api/contract.server';
import { openApiDocument } from '~/api/openapi.server';
import { brand } from '~/services/brand.server';

/** GET /api/openapi.json: the OpenAPI 3.1 document of every /api route (ADR 0035). */
export async function loader() {
  return guardApi('openapi', async () =>
    apiJson(API.openapi, 200, openApiDocument((await brand()).name) as { openapi: '3.1.0' }, {
      headers: { 'Cache-Control': 'public, max-age=300' },
    }),
  );
}

import { getPublicPolicies } from '~/models/policies.server';
import { guardApi } from '~/utils/responses.server';
import { API, apiJson } from '~/api/contract.server';

/** GET /api/policies -> [{ terms, privacy, cancel, refund, billing }], each sanitized HTML. */
export async function loader() {
  return guardApi('policies', async () => {
    const { terms, privacy, cancel, refund, billing } = await getPublicPolicies();
    return apiJson(API.policies, 200, [{ terms, privacy, cancel, refund, billing }], {
      headers: { 'Cache-Control': 'no-cache' },
    });
  });
}

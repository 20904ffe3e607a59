import { getPublicPolicies } from '~/models/policies.server';

/** GET /api/policies -> [{ terms, privacy, cancel, refund, billing }], each sanitized HTML. */
export function loader() {
  const { terms, privacy, cancel, refund, billing } = getPublicPolicies();
  return Response.json([{ terms, privacy, cancel, refund, billing }], {
    headers: { 'Cache-Control': 'no-cache' },
  });
}

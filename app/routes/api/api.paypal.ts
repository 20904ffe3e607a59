import type { ActionFunctionArgs } from '@remix-run/node';
import { z } from 'zod';
import { fail } from '~/domain/result';
import { isCountryCode } from '~/domain/countries';
import { planFromApi, startCheckout } from '~/services/billing.server';
import { apiAction } from '~/utils/actions.server';
import { requireApiUser } from '~/utils/auth.server';
import { providerReturnBase } from '~/utils/public-url.server';
import { guardApi } from '~/utils/responses.server';
import { requiredText } from '~/utils/validation.server';

const schema = z
  .object({
    planId: requiredText(64),
    email: requiredText(254),
    name: requiredText(100),
    lastName: requiredText(100),
    post: z.union([z.string(), z.number()]).transform(String).pipe(requiredText(12)),
    address: requiredText(300),
    country: requiredText(2),
  })
  .pipe(
    z.object({
      planId: z.string(),
      email: z.email('Please enter a valid email address'),
      name: z.string(),
      lastName: z.string(),
      post: z.string().regex(/^\d{3,10}$/, 'The postal code should contain only digits'),
      address: z.string(),
      country: z.string().refine(isCountryCode, 'Please give a two-letter country code'),
    }),
  );

/**
 * POST /api/paypal {planId, email, name, lastName, post, address, country} ->
 * {success, links}: starts a PayPal subscription for the caller; the member
 * approves it at the `rel: approve` link. Any brand, admin or user sent is ignored.
 */
export async function action({ request }: ActionFunctionArgs) {
  return guardApi('paypal', async () => {
    const user = await requireApiUser(request);
    return apiAction(
      request,
      {
        name: 'paypal',
        schema,
        run: async (input) => {
          const plan = planFromApi(input.planId);
          if (!plan) return fail('Unknown plan', 400);
          return startCheckout(user, {
            plan,
            provider: 'paypal',
            returnBase: providerReturnBase(request),
            customer: {
              email: input.email,
              firstName: input.name,
              lastName: input.lastName,
              address: input.address,
              postalCode: input.post,
              country: input.country,
            },
          });
        },
      },
      ({ approvalUrl }) =>
        Response.json({
          success: true,
          links: [{ href: approvalUrl, rel: 'approve', method: 'GET' }],
        }),
    );
  });
}

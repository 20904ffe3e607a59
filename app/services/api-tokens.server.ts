import { z } from 'zod';
import { fail, ok, type Result } from '~/domain/result';
import {
  deleteApiToken,
  insertApiToken,
  listApiTokens,
  MAX_API_TOKENS,
  type ApiTokenSummary,
} from '~/models/api-tokens.server';
import type { User } from '~/models/users.server';
import { log } from '~/utils/logger.server';
import { requiredText } from '~/utils/validation.server';
import { apiTokenCreatedEmail } from './email-templates.server';
import { sendDurably } from './mail.server';

/** Personal API tokens, made and revoked on /profile (ADR 0035). */
export { listApiTokens, MAX_API_TOKENS, type ApiTokenSummary };

export const TOO_MANY_TOKENS_MESSAGE = `You can have at most ${MAX_API_TOKENS} API tokens. Revoke one to make another.`;

export const createTokenSchema = z.object({
  tokenName: requiredText(60, { label: 'The token name', singleLine: true }),
});
export const revokeTokenSchema = z.object({ tokenId: requiredText(64) });

/**
 * A new token: the only time its value is ever seen (only its SHA-256 is kept). The owner is
 * told by email, since a token outlives sign-outs until it is revoked or the password changes.
 */
export async function createApiToken(
  user: User,
  { tokenName }: z.infer<typeof createTokenSchema>,
): Promise<Result<{ token: string; summary: ApiTokenSummary; message: string }>> {
  const created = await insertApiToken(user.id, tokenName);
  if (!created) return fail(TOO_MANY_TOKENS_MESSAGE, 409);
  log.info('api_token.created', { userId: user.id, tokenId: created.summary.id });
  await sendDurably({ to: user.email, ...(await apiTokenCreatedEmail(user.name, tokenName)) });
  return ok({ ...created, message: 'API token created. Copy it now: it will not be shown again.' });
}

export async function revokeApiToken(
  user: User,
  { tokenId }: z.infer<typeof revokeTokenSchema>,
): Promise<Result<{ message: string }>> {
  if (!(await deleteApiToken(user.id, tokenId))) return fail('API token not found', 404);
  log.info('api_token.revoked', { userId: user.id, tokenId });
  return ok({ message: 'API token revoked' });
}

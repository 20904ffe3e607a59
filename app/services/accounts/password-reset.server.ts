import { fail, ok } from '~/domain/result';
import {
  createPasswordResetToken,
  isResetTokenUsable,
  redeemPasswordResetToken,
} from '~/models/password-resets.server';
import { getUserByEmail, hashPassword, normalizeEmail } from '~/models/users.server';
import { transaction } from '~/utils/database.server';
import { log } from '~/utils/logger.server';
import { clear, hit, refund } from '~/utils/rate-limit.server';
import { accountUpdatedEmail, passwordResetEmail } from '../email-templates.server';
import { dispatchMail, queueMail, sendDurably } from '../mail.server';
import { afterTheAnswer, limited, LIMITS } from './limits.server';
import { MESSAGES, type Done } from './messages.server';
import type { ForgotInput, ResetInput } from './schemas.server';

/**
 * Same answer, in the same time, whether or not the account exists: only the rate limits (the
 * same work for any address) run before the answer; looking the account up, storing a token and
 * sending the link happen after it (issue 31: a member's address answered 2.8 ms slower).
 */
export async function requestPasswordReset(input: ForgotInput, ip: string): Promise<Done> {
  const account = normalizeEmail(input.email);
  const blocked = limited(
    await Promise.all([hit(LIMITS.forgotAccount, account), hit(LIMITS.forgotIp, ip)]),
  );
  if (blocked) return blocked;
  afterTheAnswer(() => sendResetLink(account));
  return ok({ message: MESSAGES.resetSent });
}

/** The reset link for an account that exists; nothing for an address that has none. */
export async function sendResetLink(account: string) {
  const user = await getUserByEmail(account);
  if (!user) return;
  const mailId = await transaction(async () =>
    queueMail({
      to: user.email,
      ...(await passwordResetEmail(user.name, await createPasswordResetToken(user.id))),
    }),
  );
  log.info('account.reset_requested', { userId: user.id });
  await dispatchMail(mailId);
}

/** Spends the token, sets the password, and ends every session, reset link and pending email change. */
export async function resetPassword(
  input: ResetInput,
  ip: string,
): Promise<Done<{ email: string }>> {
  const blocked = limited([await hit(LIMITS.resetIp, ip)]);
  if (blocked) return blocked;
  // A cheap look first, so a guessed token costs no slow hash; the redeem below re-checks atomically.
  if (!(await isResetTokenUsable(input.token))) return fail(MESSAGES.badResetToken, 400);
  const passwordHash = await hashPassword(input.password);
  const user = await redeemPasswordResetToken(input.token, passwordHash);
  if (!user) return fail(MESSAGES.badResetToken, 400);
  await refund(LIMITS.resetIp, ip);
  // The owner proved the address: sign-ins from new devices are open again.
  await clear(LIMITS.signInAccount, normalizeEmail(user.email));
  await sendDurably({
    to: user.email,
    ...(await accountUpdatedEmail(user.name, { password: true })),
  });
  log.info('account.password_reset', { userId: user.userId });
  return ok({ message: MESSAGES.passwordReset, email: user.email });
}

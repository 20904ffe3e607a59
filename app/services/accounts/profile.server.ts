import { fail, ok } from '~/domain/result';
import { createEmailChangeToken, redeemEmailChange } from '~/models/email-changes.server';
import { isEmailTakenByOther, updateAccount } from '~/models/user-accounts.server';
import { hashPassword, normalizeEmail, verifyPassword, type User } from '~/models/users.server';
import { createSession } from '~/utils/auth.server';
import { transaction } from '~/utils/database.server';
import { log } from '~/utils/logger.server';
import { hit, refund } from '~/utils/rate-limit.server';
import {
  accountUpdatedEmail,
  confirmEmailChangeEmail,
  emailChangeRequestedEmail,
} from '../email-templates.server';
import { dispatchMail, queueMail } from '../mail.server';
import { limited, LIMITS } from './limits.server';
import { emailChangeSentMessage, MESSAGES, type Done } from './messages.server';
import type { EmailChangeInput, ProfileInput } from './schemas.server';

/**
 * The current password, before an email or password change or deleting the account: a stolen
 * session alone must not be enough to take (or end) the account. Failures count against the
 * account (a good answer gives its hit back), so the session cannot be used to guess the
 * password either.
 */
export async function checkCurrentPassword(
  user: User,
  currentPassword: string | undefined,
  neededMessage: string = MESSAGES.currentPasswordNeeded,
) {
  if (!currentPassword) return fail(neededMessage, 400);
  const blocked = limited([await hit(LIMITS.currentPasswordAccount, user.id)]);
  if (blocked) return blocked;
  if (!(await verifyPassword(currentPassword, user.passwordHash)))
    return fail(MESSAGES.currentPasswordWrong, 403);
  await refund(LIMITS.currentPasswordAccount, user.id);
  return null;
}

/**
 * Changes the signed-in member's own profile. The name changes at once. An email or password
 * change needs the current password. A new password ends every session (this one included, a
 * fresh one is returned for this browser), every reset link and every pending email change, and
 * is reported by email. A new email is only requested: a link goes to it, a notice to the current
 * address, and the account moves when the link is followed (confirmEmailChange).
 */
export async function updateProfile(
  user: User,
  input: ProfileInput,
  ip: string,
): Promise<Done<{ user: User; cookie?: string }>> {
  const email = normalizeEmail(input.email);
  const emailChanging = email !== normalizeEmail(user.email);
  if (emailChanging || input.password) {
    const refused = await checkCurrentPassword(user, input.currentPassword);
    if (refused) return refused;
  }
  if (emailChanging) {
    // Each request mails the new address and answers whether it is taken: bounded per account
    // and per client, so the form can neither send mail nor list accounts at will.
    const blocked = limited(
      await Promise.all([hit(LIMITS.emailChangeAccount, user.id), hit(LIMITS.emailChangeIp, ip)]),
    );
    if (blocked) return blocked;
    if (await isEmailTakenByOther(email, user.id)) return fail(MESSAGES.emailInUse, 409);
  }
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  const { updated, mailIds } = await transaction(async () => {
    const updated = await updateAccount(user.id, { name: input.mName, passwordHash });
    const mailIds: string[] = [];
    if (!updated) return { updated, mailIds };
    if (passwordHash)
      mailIds.push(
        await queueMail({
          to: updated.email,
          ...(await accountUpdatedEmail(updated.name, { password: true })),
        }),
      );
    // After the password's revocation, so this request's link survives its own password change.
    if (emailChanging) {
      const token = await createEmailChangeToken(user.id, email);
      mailIds.push(
        await queueMail({
          to: email,
          ...(await confirmEmailChangeEmail(updated.name, email, token)),
        }),
        await queueMail({
          to: updated.email,
          ...(await emailChangeRequestedEmail(updated.name, email)),
        }),
      );
    }
    return { updated, mailIds };
  });
  if (!updated) return fail('Account not found', 404);
  const cookie = passwordHash ? await createSession(user.id) : undefined;
  await dispatchMail(...mailIds);
  log.info('account.profile_updated', {
    userId: user.id,
    emailChangeRequested: emailChanging,
    passwordChanged: !!passwordHash,
  });
  const message = emailChanging ? emailChangeSentMessage(email) : MESSAGES.profileUpdated;
  return ok({ message, user: updated, cookie });
}

/**
 * Follows an email confirmation link: the account moves to the address the link was sent to,
 * and both addresses are told. Needs no session, since the link proves the new address's owner
 * and the current password was checked when the change was asked for.
 */
export async function confirmEmailChange(
  input: EmailChangeInput,
): Promise<Done<{ email: string }>> {
  let mailIds: string[] = [];
  const outcome = await redeemEmailChange(input.token, async ({ user, oldEmail }) => {
    const mail = await accountUpdatedEmail(user.name, { password: false, email: user.email });
    // Assigned whole on each run of the body (a PostgreSQL retry runs it again).
    mailIds = [
      await queueMail({ to: oldEmail, ...mail }),
      await queueMail({ to: user.email, ...mail }),
    ];
  });
  if (!outcome.changed)
    return outcome.reason === 'taken'
      ? fail(MESSAGES.emailInUse, 409)
      : fail(MESSAGES.badEmailChangeToken, 400);
  await dispatchMail(...mailIds);
  log.info('account.email_changed', { userId: outcome.user.id });
  return ok({ message: MESSAGES.emailChanged, email: outcome.user.email });
}

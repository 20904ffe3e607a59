import { fail, ok, type Result } from '~/domain/result';
import { countMainAdmins, deleteAccountRows } from '~/models/account-deletion.server';
import { recordAudit } from '~/models/admin.server';
import { getCurrentSubscription } from '~/models/subscriptions.server';
import { getUserById, type User } from '~/models/users.server';
import { cancelSubscription } from '~/services/billing/cancellation.server';
import { dropCourseJobs } from '~/services/course-deletion.server';
import { accountDeletedEmail } from '~/services/email-templates.server';
import { dispatchMail, queueMail } from '~/services/mail.server';
import { log } from '~/utils/logger.server';
import { checkCurrentPassword } from './profile.server';

export const ACCOUNT_DELETION_MESSAGES = {
  deleted: 'Your account was deleted',
  deletedByAdmin: 'The member was deleted',
  passwordNeeded: 'Please enter your password to delete your account',
  onlyMainAdmin:
    'You are the only main admin: make another member main admin before deleting this account',
  noSuchMember: 'No such member',
  adminSelf: 'Delete your own account from your profile',
  adminNeedsMainAdmin: 'Only a main admin can delete an admin',
  cancelFailed:
    'We could not cancel the subscription at the payment provider, so the account was not deleted (it would go on being charged). Please try again in a moment.',
} as const;

/**
 * Deletes an account and everything of it (issue 38, ADR 0054), for the member on /profile or an
 * admin on the Users table. A live subscription is cancelled at its provider first, through the
 * Cancel Subscription button's own code; if the provider cannot be reached nothing is deleted,
 * so no one is charged for an account that is gone. Then every row goes in one transaction
 * (deleteAccountRows), with the confirmation email queued inside it and sent after; the courses'
 * waiting jobs leave the queue. The sessions and API tokens go with the rows, so the member is
 * signed out everywhere and the address can sign up again.
 */
export async function deleteAccount(
  user: User,
  by: { admin: User } | { password: string | undefined },
): Promise<Result<{ message: string }>> {
  if ('password' in by) {
    const refused = await checkCurrentPassword(
      user,
      by.password,
      ACCOUNT_DELETION_MESSAGES.passwordNeeded,
    );
    if (refused) return refused;
  }
  if (user.role === 'main_admin' && (await countMainAdmins()) <= 1)
    return fail(ACCOUNT_DELETION_MESSAGES.onlyMainAdmin, 409);

  const subscription = await getCurrentSubscription(user.id);
  if (subscription?.status === 'active') {
    const cancelled = await cancelSubscription(user);
    if (!cancelled.ok) {
      log.warn('account.delete_waits_for_cancel', { userId: user.id, reason: cancelled.message });
      return fail(ACCOUNT_DELETION_MESSAGES.cancelFailed, 502);
    }
  }

  let mailId = '';
  const courses = await deleteAccountRows(user, async () => {
    mailId = await queueMail({ to: user.email, ...(await accountDeletedEmail(user.name)) });
  });
  log.info('account.deleted', {
    userId: user.id,
    by: 'admin' in by ? by.admin.id : 'member',
    courses: courses.length,
  });
  if ('admin' in by) await recordAudit(by.admin, 'delete-member', user.id);
  await dispatchMail(mailId);
  for (const course of courses) await dropCourseJobs(course);
  return ok({
    message:
      'admin' in by ? ACCOUNT_DELETION_MESSAGES.deletedByAdmin : ACCOUNT_DELETION_MESSAGES.deleted,
  });
}

/** Who the admin's Delete confirmation names. */
export async function memberToDelete(userId: string) {
  const user = await getUserById(userId);
  return user ? { id: user.id, email: user.email, name: user.name } : null;
}

/**
 * The Users table's Delete (admin panel): the same deletion as the member's own, recorded in the
 * audit log. An admin deletes members; only a main admin deletes an admin; nobody deletes
 * their own account here (the profile asks for the password).
 */
export async function deleteMemberAsAdmin(
  admin: User,
  userId: string,
): Promise<Result<{ message: string }>> {
  const user = await getUserById(userId);
  if (!user) return fail(ACCOUNT_DELETION_MESSAGES.noSuchMember, 404);
  if (user.id === admin.id) return fail(ACCOUNT_DELETION_MESSAGES.adminSelf, 403);
  if (user.role !== 'member' && admin.role !== 'main_admin')
    return fail(ACCOUNT_DELETION_MESSAGES.adminNeedsMainAdmin, 403);
  return deleteAccount(user, { admin });
}

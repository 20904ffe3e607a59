import { z } from 'zod';
import { fail, ok, type Failure, type Result } from '~/domain/result';
import {
  accountUpdatedEmail,
  confirmEmailChangeEmail,
  emailChangeRequestedEmail,
  passwordResetEmail,
  signInsPausedEmail,
  welcomeEmail,
} from './email-templates.server';
import { dispatchMail, queueMail, sendDurably } from './mail.server';
import { createEmailChangeToken, redeemEmailChange } from '~/models/email-changes.server';
import {
  createPasswordResetToken,
  isResetTokenUsable,
  redeemPasswordResetToken,
} from '~/models/password-resets.server';
import { isEmailTakenByOther, updateAccount } from '~/models/user-accounts.server';
import {
  createUser,
  getUserByEmail,
  hashPassword,
  needsRehash,
  updatePasswordHash,
  MIN_PASSWORD_LENGTH,
  normalizeEmail,
  verifyPassword,
  type User,
} from '~/models/users.server';
import { createSession } from '~/utils/auth.server';
import { isUniqueViolation, transaction } from '~/utils/database.server';
import { env } from '~/utils/env.server';
import { accountsKnownToDevice, rememberDevice } from '~/utils/known-device.server';
import { log } from '~/utils/logger.server';
import {
  clear,
  hit,
  refund,
  tooManyRequestsFailure,
  type RateLimit,
  type RateLimitResult,
} from '~/utils/rate-limit.server';
import { REQUIRED_FIELDS_MESSAGE, requiredText } from '~/utils/validation.server';
import { INVALID_EMAIL_MESSAGE } from '~/utils/messages';

/**
 * Account use cases shared by the pages and the `/api` routes: sign up, sign
 * in, forgot and reset password, profile. Routes parse the body with the
 * schemas below and pass the session's user; this module never trusts an id
 * from a request.
 */

export const PASSWORD_LENGTH_MESSAGE = `Password should be at least ${MIN_PASSWORD_LENGTH} characters`;
export const PASSWORD_MISMATCH_MESSAGE = 'The password and confirm password do not match';
export const MESSAGES = {
  signedUp: 'Account created successfully',
  emailTaken: 'An account with this email already exists',
  signedIn: 'SignIn successful',
  badCredentials: 'Invalid email or password',
  signInsPaused:
    'Too many failed sign-ins to this account. Sign in from a browser you have used before, reset your password, or try again in',
  resetSent: 'If an account exists for this email, a password reset link has been sent to it',
  passwordReset: 'Password has been reset successfully',
  badResetToken: 'This reset link is invalid or has expired',
  profileUpdated: 'Profile Updated',
  emailInUse: 'This email is already in use',
  currentPasswordNeeded: 'Please enter your current password to change your email or password',
  currentPasswordWrong: 'Your current password is incorrect',
  badEmailChangeToken: 'This email confirmation link is invalid or has expired',
  emailChanged: 'Your email address has been changed',
} as const;

/** The profile's answer when a new email waits for its owner to follow the link. */
export const emailChangeSentMessage = (email: string) =>
  `Profile Updated. To change your email, follow the link we sent to ${email}`;

// Older accounts' bcrypt hashes read at most 72 bytes; the limit keeps one rule for all.
const MAX_PASSWORD_BYTES = 72;

/** Present and not empty; passwords are never trimmed (spaces are allowed). */
const requiredPassword = z
  .string({ error: REQUIRED_FIELDS_MESSAGE })
  .min(1, REQUIRED_FIELDS_MESSAGE)
  .max(1000, 'Please keep this under 1000 characters');

const newPassword = z
  .string()
  .min(MIN_PASSWORD_LENGTH, PASSWORD_LENGTH_MESSAGE)
  .refine((password) => password.trim().length > 0, 'Password cannot be only spaces')
  .refine(
    (password) => Buffer.byteLength(password, 'utf8') <= MAX_PASSWORD_BYTES,
    `Password should be at most ${MAX_PASSWORD_BYTES} characters`,
  );

const emailAddress = z.email(INVALID_EMAIL_MESSAGE);
const NAME = { label: 'Name', singleLine: true };
const EMAIL = { label: 'Email', singleLine: true };

// Each schema checks "all required fields" first, then the finer rules, so the
// product's required-fields message wins whenever something is missing.
export const signUpSchema = z
  .object({
    mName: requiredText(100, NAME),
    email: requiredText(254, EMAIL),
    password: requiredPassword,
  })
  .pipe(z.object({ mName: z.string(), email: emailAddress, password: newPassword }));

export const signInSchema = z.object({
  email: requiredText(254, EMAIL),
  password: requiredPassword,
});

export const forgotSchema = z
  .object({ email: requiredText(254, EMAIL) })
  .pipe(z.object({ email: emailAddress }));

const resetToken = requiredText(200);

/** `/api/reset-password`: the API's payload is password and token. */
export const resetApiSchema = z
  .object({ password: requiredPassword, token: resetToken })
  .pipe(z.object({ password: newPassword, token: z.string() }));

/** The reset page: both fields required, then they must match, then the length rule. */
export const resetFormSchema = z
  .object({ password: requiredPassword, confirmPassword: requiredPassword, token: resetToken })
  .refine((v) => v.password === v.confirmPassword, PASSWORD_MISMATCH_MESSAGE)
  .pipe(z.object({ password: newPassword, confirmPassword: z.string(), token: z.string() }));

/**
 * Profile: name and email required, the new password optional (same length rule when given).
 * The current password is checked by the use case, and only when the email or password changes.
 */
export const profileSchema = z
  .object({
    mName: requiredText(100, NAME),
    email: requiredText(254, EMAIL),
    password: z.string({ error: 'The new password should be text' }).max(1000).optional(),
    currentPassword: z
      .string({ error: 'The current password should be text' })
      .max(1000)
      .optional(),
  })
  .pipe(
    z.object({
      mName: z.string(),
      email: emailAddress,
      currentPassword: z.string().optional(),
      password: z
        .string()
        .optional()
        .superRefine((password, ctx) => {
          if (!password) return;
          const checked = newPassword.safeParse(password);
          if (!checked.success)
            ctx.addIssue({ code: 'custom', message: checked.error.issues[0]!.message });
        }),
    }),
  );

/** `/verify-email/:token`: the token from the link. */
export const emailChangeSchema = z.object({ token: requiredText(200) });

export type SignUpInput = z.infer<typeof signUpSchema>;
export type SignInInput = z.infer<typeof signInSchema>;
export type ForgotInput = z.infer<typeof forgotSchema>;
export type ResetInput = z.infer<typeof resetApiSchema>;
export type ProfileInput = z.infer<typeof profileSchema>;
export type EmailChangeInput = z.infer<typeof emailChangeSchema>;

/**
 * Limits on guessing and on abuse. Reset and the profile's current password
 * count failures only; forgot, sign-up and email changes count every request. Failed sign-ins are
 * counted per account and IP, and per IP across accounts; and per account across every address
 * (guessing from rotating addresses), where a browser that signed in to the account before is
 * not counted nor stopped, so the owner is never locked out by a stranger's guesses.
 */
export const LIMITS = {
  signInAccountIp: { name: 'signin:account-ip', max: 10, windowSeconds: 15 * 60 },
  signInAccount: { name: 'signin:account', max: 20, windowSeconds: 60 * 60 },
  signInIp: { name: 'signin:ip', max: 50, windowSeconds: 15 * 60 },
  emailChangeAccount: { name: 'profile-email:account', max: 5, windowSeconds: 60 * 60 },
  emailChangeIp: { name: 'profile-email:ip', max: 20, windowSeconds: 60 * 60 },
  currentPasswordAccount: { name: 'profile-password:account', max: 10, windowSeconds: 15 * 60 },
  forgotAccount: { name: 'forgot:account', max: 5, windowSeconds: 60 * 60 },
  forgotIp: { name: 'forgot:ip', max: 20, windowSeconds: 60 * 60 },
  resetIp: { name: 'reset:ip', max: 20, windowSeconds: 15 * 60 },
} satisfies Record<string, RateLimit>;

/** Sign-ups per IP and hour: each costs a slow hash and sends an email. */
export function signUpLimit(): RateLimit {
  return { name: 'signup:ip', max: env().SIGNUPS_PER_IP_PER_HOUR, windowSeconds: 60 * 60 };
}

/** What an account use case gives back on success: the message the member sees, and more. */
export type Done<T extends object = object> = Result<{ message: string } & T>;

function limited(results: RateLimitResult[]): Failure | null {
  const blocked = results.filter((r) => !r.allowed);
  if (blocked.length === 0) return null;
  const retryAfterSeconds = Math.max(...blocked.map((r) => r.retryAfterSeconds));
  return tooManyRequestsFailure({ retryAfterSeconds });
}

let dummyHash: Promise<string> | undefined;
/** Compared against when the email is unknown, so both answers take as long. */
function unknownUserHash() {
  dummyHash ??= hashPassword('not-a-real-password');
  return dummyHash;
}

/** What a sign-in or sign-up gives the browser: its session, and this device remembered. */
export interface SignedIn {
  user: User;
  cookie: string;
  deviceCookie: string;
}

/** Creates a free member, signs them in and sends the welcome email. */
export async function signUp(
  input: SignUpInput,
  ip: string,
  cookieHeader: string | null = null,
): Promise<Done<SignedIn>> {
  const blocked = limited([await hit(signUpLimit(), ip)]);
  if (blocked) return blocked;
  if (await getUserByEmail(input.email)) return fail(MESSAGES.emailTaken, 409);
  let user: User;
  let welcomeMailId: string | undefined;
  try {
    // Sign-up always stores type 'free', whatever the client sends.
    user = await createUser(
      {
        email: input.email,
        name: input.mName,
        password: input.password,
        plan: 'free',
        role: 'member',
      },
      async (created) => {
        welcomeMailId = await queueMail({ to: created.email, ...welcomeEmail(created.name) });
      },
    );
  } catch (error) {
    // The case-insensitive email index refused it: another sign-up took the address meanwhile
    // (the transaction's other unique key, its mail's id, is random).
    if (isUniqueViolation(error)) return fail(MESSAGES.emailTaken, 409);
    throw error;
  }
  const cookie = await createSession(user.id);
  const deviceCookie = await rememberDevice(cookieHeader, user.id);
  await dispatchMail(welcomeMailId!);
  log.info('account.signed_up', { userId: user.id });
  return ok({ message: MESSAGES.signedUp, user, cookie, deviceCookie });
}

/**
 * Every attempt takes a hit per account and IP, per IP, and (from a browser the account never
 * signed in with) per account, before the password is checked; a good password gives the
 * account's hits back, so only failures add up, and a locked account stays locked even for the
 * right password until the window ends. `cookieHeader` tells which accounts this browser signed
 * in to before.
 */
export async function signIn(
  input: SignInInput,
  ip: string,
  cookieHeader: string | null = null,
): Promise<Done<SignedIn>> {
  const account = normalizeEmail(input.email);
  const accountIp = `${account}|${ip}`;
  const blocked = limited(
    await Promise.all([hit(LIMITS.signInAccountIp, accountIp), hit(LIMITS.signInIp, ip)]),
  );
  if (blocked) {
    log.warn('account.signin_limited', { ip });
    return blocked;
  }
  // Read for every address, so an unknown one takes the same steps as an account.
  const deviceAccounts = await accountsKnownToDevice(cookieHeader);
  const user = await getUserByEmail(account);
  const knownDevice = !!user && deviceAccounts.includes(user.id);
  if (!knownDevice) {
    const accountWide = await hit(LIMITS.signInAccount, account);
    if (!accountWide.allowed) return signInsPaused(user, accountWide);
  }
  const matches = await verifyPassword(
    input.password,
    user?.passwordHash ?? (await unknownUserHash()),
  );
  if (!user || !matches) return fail(MESSAGES.badCredentials, 401);
  if (needsRehash(user.passwordHash))
    await updatePasswordHash(user.id, await hashPassword(input.password));
  // The account's failures are forgiven at this address, and this attempt across addresses
  // (the others' stay, or a guesser could reset the count with the owner's next sign-in). The
  // address keeps its count, good sign-ins included, so no client can make the server hash
  // without limit.
  await clear(LIMITS.signInAccountIp, accountIp);
  if (!knownDevice) await refund(LIMITS.signInAccount, account);
  const cookie = await createSession(user.id);
  const deviceCookie = await rememberDevice(cookieHeader, user.id);
  return ok({ message: MESSAGES.signedIn, user, cookie, deviceCookie });
}

/**
 * The account's cap is reached: refused without checking the password (no hash to pay for),
 * the same for an address with no account, and the owner told once per window, after the answer.
 */
function signInsPaused(user: User | undefined, result: RateLimitResult) {
  if (result.consumed === LIMITS.signInAccount.max + 1) {
    log.warn('account.signins_paused', { userId: user?.id ?? null });
    if (user)
      afterTheAnswer(() =>
        sendDurably({
          to: user.email,
          ...signInsPausedEmail(user.name, LIMITS.signInAccount.max),
        }),
      );
  }
  const minutes = Math.ceil(result.retryAfterSeconds / 60);
  return fail(
    `${MESSAGES.signInsPaused} ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    429,
    result.retryAfterSeconds,
  );
}

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
async function sendResetLink(account: string) {
  const user = await getUserByEmail(account);
  if (!user) return;
  const mailId = await transaction(async () =>
    queueMail({
      to: user.email,
      ...passwordResetEmail(user.name, await createPasswordResetToken(user.id)),
    }),
  );
  log.info('account.reset_requested', { userId: user.id });
  await dispatchMail(mailId);
}

/**
 * Runs `work` once the current request has been answered: `setImmediate` comes after the
 * microtasks that write the response. The mail it queues is durable from then on (ADR 36).
 */
function afterTheAnswer(work: () => Promise<void>) {
  setImmediate(() => {
    work().catch((error: unknown) => log.error('account.after_answer_failed', { error }));
  });
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
  await sendDurably({ to: user.email, ...accountUpdatedEmail(user.name, { password: true }) });
  log.info('account.password_reset', { userId: user.userId });
  return ok({ message: MESSAGES.passwordReset, email: user.email });
}

/**
 * The current password, before an email or password change: a stolen session alone must not be
 * enough to take the account. Failures count against the account (a good answer gives its hit
 * back), so the session cannot be used to guess the password either.
 */
async function checkCurrentPassword(user: User, currentPassword: string | undefined) {
  if (!currentPassword) return fail(MESSAGES.currentPasswordNeeded, 400);
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
          ...accountUpdatedEmail(updated.name, { password: true }),
        }),
      );
    // After the password's revocation, so this request's link survives its own password change.
    if (emailChanging) {
      const token = await createEmailChangeToken(user.id, email);
      mailIds.push(
        await queueMail({ to: email, ...confirmEmailChangeEmail(updated.name, email, token) }),
        await queueMail({ to: updated.email, ...emailChangeRequestedEmail(updated.name, email) }),
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
    const mail = accountUpdatedEmail(user.name, { password: false, email: user.email });
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

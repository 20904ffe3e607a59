import { fail, ok } from '~/domain/result';
import {
  getUserByEmail,
  hashPassword,
  isLegacyHash,
  normalizeEmail,
  verifyPassword,
  type User,
} from '~/models/users.server';
import { createSession } from '~/utils/auth.server';
import { accountsKnownToDevice, rememberDevice } from '~/utils/known-device.server';
import { log } from '~/utils/logger.server';
import { clear, hit, refund, type RateLimitResult } from '~/utils/rate-limit.server';
import { signInsPausedEmail } from '../email-templates.server';
import { sendDurably } from '../mail.server';
import { afterTheAnswer, limited, LIMITS } from './limits.server';
import { sendResetLink } from './password-reset.server';
import { MESSAGES, type Done } from './messages.server';
import type { SignInInput } from './schemas.server';

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
  if (user && isLegacyHash(user.passwordHash)) return legacyPassword(user);
  const matches = await verifyPassword(
    input.password,
    user?.passwordHash ?? (await unknownUserHash()),
  );
  if (!user || !matches) return fail(MESSAGES.badCredentials, 401);
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
 * An account whose password is still a bcrypt hash (not signed in since argon2id, ADR 0006)
 * cannot be checked now that bcrypt is gone (ADR 0053): whatever the password, the member is
 * told to set a new one and mailed a reset link, as "forgot password" would, within its limit
 * (a link already sent in the last hour stands).
 */
async function legacyPassword(user: User) {
  const account = normalizeEmail(user.email);
  if ((await hit(LIMITS.forgotAccount, account)).allowed) {
    log.info('account.legacy_hash_reset', { userId: user.id });
    afterTheAnswer(() => sendResetLink(account));
  }
  return fail(MESSAGES.passwordResetNeeded, 401);
}

/**
 * The account's cap is reached: refused without checking the password (no hash to pay for),
 * the same for an address with no account, and the owner told once per window, after the answer.
 */
function signInsPaused(user: User | undefined, result: RateLimitResult) {
  if (result.consumed === LIMITS.signInAccount.max + 1) {
    log.warn('account.signins_paused', { userId: user?.id ?? null });
    if (user)
      afterTheAnswer(async () =>
        sendDurably({
          to: user.email,
          ...(await signInsPausedEmail(user.name, LIMITS.signInAccount.max)),
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

import { fail, ok } from '~/domain/result';
import { createUser, getUserByEmail, type User } from '~/models/users.server';
import { createSession } from '~/utils/auth.server';
import { isUniqueViolation } from '~/utils/database.server';
import { rememberDevice } from '~/utils/known-device.server';
import { log } from '~/utils/logger.server';
import { hit } from '~/utils/rate-limit.server';
import { welcomeEmail } from '../email-templates.server';
import { dispatchMail, queueMail } from '../mail.server';
import { limited, signUpLimit } from './limits.server';
import { MESSAGES, type Done } from './messages.server';
import type { SignUpInput } from './schemas.server';
import type { SignedIn } from './sign-in.server';

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
        welcomeMailId = await queueMail({
          to: created.email,
          ...(await welcomeEmail(created.name)),
        });
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

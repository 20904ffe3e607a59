import { and, desc, eq, gt, isNull } from 'drizzle-orm';
import { isEmailTakenByOther } from './user-accounts.server';
import { normalizeEmail, type User } from './users.server';
import { database, first, isUniqueViolation, tables, transaction } from '~/utils/database.server';
import { hashToken, newSecretToken } from '~/utils/ids.server';

/** A confirmation link works for a day, once; the newest request replaces older ones. */
const EMAIL_CHANGE_TTL_MS = 24 * 60 * 60 * 1000;

async function spendOpenTokens(userId: string, now: Date) {
  const { emailChangeTokens } = tables;
  await database()
    .update(emailChangeTokens)
    .set({ usedAt: now })
    .where(and(eq(emailChangeTokens.userId, userId), isNull(emailChangeTokens.usedAt)));
}

/**
 * Records that `userId` asked to move to `newEmail` and returns the token for the link sent
 * there; only its SHA-256 is stored. Earlier requests of the user stop working.
 */
export async function createEmailChangeToken(userId: string, newEmail: string): Promise<string> {
  const { emailChangeTokens } = tables;
  const now = new Date();
  await spendOpenTokens(userId, now);
  const token = newSecretToken();
  await database()
    .insert(emailChangeTokens)
    .values({
      tokenHash: hashToken(token),
      userId,
      newEmail: normalizeEmail(newEmail),
      expiresAt: new Date(now.getTime() + EMAIL_CHANGE_TTL_MS),
    });
  return token;
}

function liveToken(token: string, now: Date) {
  const { emailChangeTokens } = tables;
  return and(
    eq(emailChangeTokens.tokenHash, hashToken(token)),
    isNull(emailChangeTokens.usedAt),
    gt(emailChangeTokens.expiresAt, now),
  );
}

/** The address a live token would move its account to (the page asks before confirming). */
export async function emailChangeFor(token: string): Promise<string | undefined> {
  const { emailChangeTokens } = tables;
  const row = await first(
    database()
      .select({ newEmail: emailChangeTokens.newEmail })
      .from(emailChangeTokens)
      .where(liveToken(token, new Date())),
  );
  return row?.newEmail;
}

/** The address the member is waiting to confirm, if any (the profile page shows it). */
export async function pendingEmailChange(userId: string): Promise<string | undefined> {
  const { emailChangeTokens } = tables;
  const row = await first(
    database()
      .select({ newEmail: emailChangeTokens.newEmail })
      .from(emailChangeTokens)
      .where(
        and(
          eq(emailChangeTokens.userId, userId),
          isNull(emailChangeTokens.usedAt),
          gt(emailChangeTokens.expiresAt, new Date()),
        ),
      )
      .orderBy(desc(emailChangeTokens.createdAt))
      .limit(1),
  );
  return row?.newEmail;
}

export type EmailChangeOutcome =
  { changed: true; user: User; oldEmail: string } | { changed: false; reason: 'invalid' | 'taken' };

/**
 * Spends a live token and moves its account to the new address in one transaction (two racing
 * confirmations cannot both win). An address another account took meanwhile changes nothing and
 * leaves the link as it was. `alongside` writes what must be stored with the change (its mail):
 * database work only, since on PostgreSQL the transaction may run more than once.
 */
export async function redeemEmailChange(
  token: string,
  alongside?: (change: { user: User; oldEmail: string }) => Promise<void>,
): Promise<EmailChangeOutcome> {
  try {
    return await moveToNewEmail(token, alongside);
  } catch (error) {
    // On PostgreSQL a sign-up committing the same address between the check and the update may
    // surface as the email index refusing the update: the address was taken meanwhile.
    if (isUniqueViolation(error)) return { changed: false, reason: 'taken' };
    throw error;
  }
}

function moveToNewEmail(
  token: string,
  alongside?: (change: { user: User; oldEmail: string }) => Promise<void>,
): Promise<EmailChangeOutcome> {
  return transaction(async (tx): Promise<EmailChangeOutcome> => {
    const { emailChangeTokens, users } = tables;
    const now = new Date();
    const request = await first(tx.select().from(emailChangeTokens).where(liveToken(token, now)));
    if (!request) return { changed: false, reason: 'invalid' };
    if (await isEmailTakenByOther(request.newEmail, request.userId))
      return { changed: false, reason: 'taken' };
    const before = await first(
      tx.select({ email: users.email }).from(users).where(eq(users.id, request.userId)),
    );
    if (!before) return { changed: false, reason: 'invalid' };
    await spendOpenTokens(request.userId, now);
    const [user] = await tx
      .update(users)
      .set({ email: request.newEmail, updatedAt: now })
      .where(eq(users.id, request.userId))
      .returning();
    await alongside?.({ user: user!, oldEmail: before.email });
    return { changed: true, user: user!, oldEmail: before.email };
  });
}

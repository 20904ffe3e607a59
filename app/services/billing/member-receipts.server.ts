import { fail, ok, type Result } from '~/domain/result';
import { getReceiptForUser, listReceipts } from '~/models/subscriptions.server';
import type { User } from '~/models/users.server';
import { brand } from '~/services/brand.server';
import { receiptFilename, receiptPdf } from './receipt-document.server';
import { emailReceiptOnce, sendReceiptEmail } from './receipts.server';

/** The member's own receipts: downloaded as PDFs or emailed again. */

/** A receipt of the member's own, as its PDF. */
export async function receiptDownload(
  user: User,
  number: number,
): Promise<Result<{ filename: string; pdf: Buffer }>> {
  const found = await getReceiptForUser(number, user.id);
  if (!found) return fail('Receipt not found', 404);
  return ok({
    filename: receiptFilename(found.receipt),
    pdf: await receiptPdf(found.receipt, found.subscription, (await brand()).name),
  });
}

/** Emails one of the member's receipts (the newest when none is named) to the member. */
export async function emailReceipt(
  user: User,
  number?: number,
): Promise<Result<{ message: string }>> {
  const wanted = number ?? (await listReceipts(user.id))[0]?.number;
  const found = wanted === undefined ? undefined : await getReceiptForUser(wanted, user.id);
  if (!found) return fail('Receipt not found', 404);
  const sent = await sendReceiptEmail(found.receipt, found.subscription, user.email);
  return sent
    ? ok({ message: 'Receipt sent to your email' })
    : fail('The email could not be sent. Please try again later.', 502);
}

/** The receipt of the newest payment, emailed unless it already went out. */
export async function emailLatestReceiptOnce(user: User): Promise<Result<{ message: string }>> {
  const latest = (await listReceipts(user.id))[0];
  const found = latest && (await getReceiptForUser(latest.number, user.id));
  if (!found) return fail('Receipt not found', 404);
  if (!found.receipt.emailedAt)
    await emailReceiptOnce(
      found.receipt,
      found.subscription,
      found.subscription.customer?.email ?? user.email,
    );
  return ok({ message: 'Receipt sent to your email' });
}

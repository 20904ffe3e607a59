import {
  claimReceiptEmail,
  listReceiptsToEmail,
  finishReceiptEmail,
  type Receipt,
  type SubscriptionRow,
} from '~/models/subscriptions.server';
import { brand } from '~/services/brand.server';
import { escapeHtml } from '~/utils/escape';
import { log } from '~/utils/logger.server';
import { sendEmail } from '../vendors/mailer.server';
import { receiptFilename, receiptLines, receiptPdf } from './receipt-document.server';

/** A receipt by email: its HTML body with the same lines as its PDF, the PDF attached. */

function receiptEmailHtml(
  receipt: Receipt,
  subscription: SubscriptionRow,
  company: string,
): string {
  const lines = receiptLines(receipt, subscription);
  const row = (label: string, value: string) =>
    `<tr><th style="text-align:left;padding:4px 12px 4px 0">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`;
  return `<!doctype html>
<html lang="en"><body style="font-family:system-ui,sans-serif;color:#111827;line-height:1.5">
<h1 style="font-size:20px">${escapeHtml(company)}: ${escapeHtml(lines.title)}</h1>
<p>Thank you for your payment. Your receipt is attached as a PDF.</p>
<table>${lines.rows.map(([label, value]) => row(label, value)).join('')}
${row('Item', lines.item)}${row('Price', lines.price)}${row('Total', lines.total)}</table>
</body></html>`;
}

/** Longer than any send takes: a live claim means someone is sending. */
const EMAIL_LEASE_MS = 15 * 60_000;

/** Emails a receipt (HTML body, PDF attached). False when the mail could not be sent. */
export async function sendReceiptEmail(
  receipt: Receipt,
  subscription: SubscriptionRow,
  to: string,
): Promise<boolean> {
  const { name: company } = await brand();
  const pdf = await receiptPdf(receipt, subscription, company);
  return sendEmail({
    to,
    subject: `Your ${company} receipt #${String(receipt.number).padStart(6, '0')}`,
    html: receiptEmailHtml(receipt, subscription, company),
    text: `Thank you for your payment of ${receiptLines(receipt, subscription).total}. Your receipt is attached.`,
    attachments: [
      { filename: receiptFilename(receipt), contentType: 'application/pdf', content: pdf },
    ],
  });
}

/**
 * The receipt of a new payment, emailed once however often the page that
 * records it is opened: the first caller claims it, and a failed send gives
 * the claim back for the next try.
 */
export async function emailReceiptOnce(
  receipt: Receipt,
  subscription: SubscriptionRow,
  to: string,
): Promise<boolean> {
  if (!(await claimReceiptEmail(receipt.number, new Date(), EMAIL_LEASE_MS))) return false;
  const sent = await sendReceiptEmail(receipt, subscription, to);
  await finishReceiptEmail(receipt.number, sent);
  if (!sent) log.warn('receipt.email_failed', { receipt: receipt.number });
  return sent;
}

/**
 * Receipts of the last week whose email a crash (or a failed send) left unsent: sent now. The
 * newest two minutes are left to the request or job that is sending them.
 */
export async function emailUnsentReceipts(now = new Date()): Promise<number> {
  const due = await listReceiptsToEmail(
    { since: new Date(+now - 7 * 24 * 3_600_000), before: new Date(+now - 2 * 60_000) },
    now,
    EMAIL_LEASE_MS,
  );
  let sent = 0;
  for (const { receipt, subscription, email } of due)
    if (await emailReceiptOnce(receipt, subscription, subscription.customer?.email ?? email))
      sent += 1;
  return sent;
}

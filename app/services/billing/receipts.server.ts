import path from 'node:path';
import type { BillingCustomer } from '../../../db/schema';
import { planName } from '~/domain/plans';
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
import { projectPath } from '~/utils/project-files.server';

/**
 * Receipts are rendered on the server from what was recorded of a payment,
 * never from anything a browser sends: one template, as a PDF (download and
 * email attachment) and as the email's HTML body.
 */
const PROVIDER_NAMES = { paypal: 'PayPal', razorpay: 'Razorpay' } as const;
const FONT_DIR = projectPath('app', 'assets', 'fonts');

export const receiptFilename = (receipt: Pick<Receipt, 'number'>) =>
  `receipt-${String(receipt.number).padStart(6, '0')}.pdf`;

export function formatMoney(cents: number, currency: string): string {
  return `${currency === 'USD' ? '$' : ''}${(cents / 100).toFixed(2)} ${currency}`;
}

const formatDate = (date: Date | null) =>
  date
    ? date.toLocaleDateString('en-GB', {
        day: 'numeric',
        month: 'long',
        year: 'numeric',
        timeZone: 'UTC',
      })
    : '—';

/** The receipt's lines, in the order both the PDF and the email show them. */
function receiptLines(receipt: Receipt, subscription: SubscriptionRow) {
  const customer: Partial<BillingCustomer> = subscription.customer ?? {};
  const price = formatMoney(receipt.amountCents, receipt.currency);
  return {
    title: `Receipt #${String(receipt.number).padStart(6, '0')}`,
    rows: [
      ['Subscription ID', subscription.providerSubscriptionId],
      ['Paid on', formatDate(receipt.paidAt)],
      ['Start', formatDate(subscription.startedAt)],
      ['Next billing', formatDate(receipt.nextBillingAt)],
      ['Customer', [customer.firstName, customer.lastName].filter(Boolean).join(' ') || '—'],
      ['Email', customer.email ?? '—'],
      [
        'Address',
        [customer.address, customer.postalCode, customer.country].filter(Boolean).join(', ') || '—',
      ],
      ['Payment method', PROVIDER_NAMES[subscription.provider]],
    ] as [string, string][],
    item: planName(receipt.plan),
    price,
    total: price,
  };
}

export async function receiptPdf(receipt: Receipt, subscription: SubscriptionRow): Promise<Buffer> {
  // Loaded with the first receipt: a process that draws none never holds PDFKit.
  const { default: PDFDocument } = await import('pdfkit');
  const lines = receiptLines(receipt, subscription);
  // The brand's name (ADR 0062), the environment's COMPANY_NAME until the operator sets one.
  const COMPANY_NAME = (await brand()).name;
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: { Title: `${COMPANY_NAME} ${lines.title}`, Author: COMPANY_NAME },
  });
  doc.registerFont('regular', path.join(FONT_DIR, 'Inter-Regular.ttf'));
  doc.registerFont('bold', path.join(FONT_DIR, 'Inter-SemiBold.ttf'));
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  doc.font('bold').fontSize(22).text(COMPANY_NAME);
  doc.moveDown(0.3).font('regular').fontSize(14).fillColor('#4b5563').text(lines.title);
  doc.moveDown(1.2).fillColor('#111827').fontSize(11);
  for (const [label, value] of lines.rows) {
    const y = doc.y;
    doc.font('bold').text(label, 56, y, { width: 150 });
    doc.font('regular').text(value, 210, y, { width: 330 });
    doc.moveDown(0.4);
  }
  doc.moveDown(1);
  const tableTop = doc.y;
  doc
    .font('bold')
    .text('Item', 56, tableTop)
    .text('Price', 400, tableTop, { width: 140, align: 'right' });
  doc
    .moveTo(56, doc.y + 4)
    .lineTo(540, doc.y + 4)
    .stroke('#d1d5db');
  doc.moveDown(0.6);
  const itemTop = doc.y;
  doc
    .font('regular')
    .text(lines.item, 56, itemTop)
    .text(lines.price, 400, itemTop, { width: 140, align: 'right' });
  doc.moveDown(0.8);
  const totalTop = doc.y;
  doc
    .font('bold')
    .text('Total', 56, totalTop)
    .text(lines.total, 400, totalTop, { width: 140, align: 'right' });
  doc.end();
  return done;
}

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
  const [pdf, { name: company }] = await Promise.all([receiptPdf(receipt, subscription), brand()]);
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

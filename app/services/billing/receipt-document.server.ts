import path from 'node:path';
import type { BillingCustomer } from '../../../db/schema';
import { isCurrency, planName, type Currency } from '~/domain/plans';
import type { Receipt, SubscriptionRow } from '~/models/subscriptions.server';
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

/**
 * Each currency's sign, as its people write it. The receipt fonts (Inter, embedded) have every
 * one; the code after the amount tells the dollars apart.
 */
const CURRENCY_SIGNS: Record<Currency, string> = {
  USD: '$',
  EUR: '€',
  GBP: '£',
  INR: '₹',
  AUD: '$',
  CAD: '$',
  SGD: '$',
};

/** '₹699.00 INR', '€10.00 EUR', '$8.00 USD'; a currency without a known sign as '5.00 XYZ'. */
export function formatMoney(cents: number, currency: string): string {
  const sign = isCurrency(currency) ? CURRENCY_SIGNS[currency] : '';
  return `${sign}${(cents / 100).toFixed(2)} ${currency}`;
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
export function receiptLines(receipt: Receipt, subscription: SubscriptionRow) {
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

/** `company`: the brand's name (ADR 0062), passed in so that the export thread reads no settings. */
export async function receiptPdf(
  receipt: Receipt,
  subscription: SubscriptionRow,
  company: string,
): Promise<Buffer> {
  // Loaded with the first receipt: a process that draws none never holds PDFKit.
  const { default: PDFDocument } = await import('pdfkit');
  const lines = receiptLines(receipt, subscription);
  const doc = new PDFDocument({
    size: 'A4',
    margin: 56,
    info: { Title: `${company} ${lines.title}`, Author: company },
  });
  doc.registerFont('regular', path.join(FONT_DIR, 'Inter-Regular.ttf'));
  doc.registerFont('bold', path.join(FONT_DIR, 'Inter-SemiBold.ttf'));
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });

  doc.font('bold').fontSize(22).text(company);
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

import { PDFParse } from 'pdf-parse';
import { describe, expect, it } from 'vitest';
import { CURRENCIES } from '~/domain/plans';
import type { Receipt, SubscriptionRow } from '~/models/subscriptions.server';
import { formatMoney, receiptLines, receiptPdf } from './receipt-document.server';

/**
 * A receipt's price in its currency's sign and code (issue 40): in the lines the email shows, and
 * in the PDF, whose embedded font must draw the sign (a glyph it lacks comes out as U+0000).
 */
const receipt = (amountCents: number, currency: string) =>
  ({
    number: 12,
    amountCents,
    currency,
    paidAt: new Date('2026-03-01T10:00:00Z'),
    nextBillingAt: null,
    plan: 'monthly',
  }) as Receipt;
const subscription = {
  provider: 'razorpay',
  providerSubscriptionId: 'sub_RECEIPT',
  customer: null,
  startedAt: null,
} as unknown as SubscriptionRow;

async function pdfText(pdf: Buffer): Promise<string> {
  const parser = new PDFParse({ data: new Uint8Array(pdf) });
  try {
    return (await parser.getText()).text;
  } finally {
    await parser.destroy();
  }
}

describe('receipt money', () => {
  it('writes each currency with its sign, and its code to tell the dollars apart', () => {
    expect(formatMoney(69_900, 'INR')).toBe('₹699.00 INR');
    expect(formatMoney(1000, 'EUR')).toBe('€10.00 EUR');
    expect(formatMoney(750, 'GBP')).toBe('£7.50 GBP');
    expect(formatMoney(800, 'USD')).toBe('$8.00 USD');
    expect(formatMoney(1250, 'AUD')).toBe('$12.50 AUD');
    // Every currency the settings offer has a sign; a code from elsewhere is written as it is.
    for (const currency of CURRENCIES) expect(formatMoney(100, currency)).toMatch(/^\D+1\.00 /);
    expect(formatMoney(500, 'XYZ')).toBe('5.00 XYZ');
    expect(receiptLines(receipt(69_900, 'INR'), subscription)).toMatchObject({
      price: '₹699.00 INR',
      total: '₹699.00 INR',
    });
  });

  it('draws every sign in the PDF, in the regular and the bold face', async () => {
    for (const currency of CURRENCIES) {
      const text = await pdfText(await receiptPdf(receipt(69_900, currency), subscription, 'Acme'));
      const price = formatMoney(69_900, currency);
      // The price row (regular) and the total row (bold).
      expect(text.split(price).length - 1, `${currency}: ${text}`).toBe(2);
      expect(text).not.toContain('\u0000');
    }
    const rupees = await pdfText(await receiptPdf(receipt(69_900, 'INR'), subscription, 'Acme'));
    expect(rupees).toContain('₹699.00 INR');
  }, 60_000);
});

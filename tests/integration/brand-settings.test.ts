import { eq } from 'drizzle-orm';
import { PDFParse } from 'pdf-parse';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Receipt, SubscriptionRow } from '~/models/subscriptions.server';
import { receiptPdf } from '~/services/billing/receipt-document.server';
import { brand } from '~/services/brand.server';
import { currentBranding } from '~/services/certificate/branding.server';
import { database, tables } from '~/utils/database.server';
import { GIF, HANDLER_SVG, PLAIN_SVG, SCRIPTED_SVG, solidPng } from '../support/brand';
import {
  twoWebProcessesForThisFile,
  type SignedIn,
  type WebProcess,
} from '../support/settings-nodes';
import { until } from '../support/processes';

/**
 * The brand as a setting (issue 40, ADR 0062): only the main admin reads or changes it, a logo
 * that could run or is too large and a colour too light to read are refused with the reason, and
 * every web process shows a change without a restart, in its pages, its emails, the receipt and
 * the certificate. Two web processes share this file's database and Redis, as two nodes do.
 */
type Web = WebProcess;
const nodes = twoWebProcessesForThisFile();
let first: Web;
let second: Web;
let owner: SignedIn;
let admin: SignedIn;
let free: SignedIn;
beforeAll(() => {
  ({ first, second, owner, admin, free } = nodes);
});

const NAME = 'Acme Academy';

/** The brand form as a browser posts it: multipart, the logo as a file when there is one. */
function saveBrand(
  web: Web,
  cookie: string,
  fields: Record<string, string>,
  logo?: { bytes: Buffer | string; type: string; filename: string },
) {
  const form = new FormData();
  form.set('intent', 'save-brand');
  for (const [key, value] of Object.entries(fields)) form.set(key, value);
  form.set(
    'logo',
    logo
      ? new Blob([typeof logo.bytes === 'string' ? logo.bytes : new Uint8Array(logo.bytes)], {
          type: logo.type,
        })
      : new Blob([]),
    logo?.filename ?? '',
  );
  return fetch(`${web.base}/admin/settings`, {
    method: 'POST',
    headers: { Cookie: cookie, Origin: web.base },
    body: form,
    redirect: 'manual',
  });
}

const storedBrand = async () =>
  (await database().select().from(tables.settings).where(eq(tables.settings.key, 'brand')))[0]
    ?.value ?? null;

const page = (web: Web, path: string) => fetch(`${web.base}${path}`).then((r) => r.text());

describe('brand settings', () => {
  it('are the main admin’s alone: a member and an admin can neither read nor change them', async () => {
    const memberPage = await fetch(`${first.base}/admin/settings`, {
      headers: { Cookie: free.cookie },
      redirect: 'manual',
    });
    expect(memberPage.status).toBe(302);
    expect(memberPage.headers.get('location')).toBe('/home');
    const adminPage = await fetch(`${first.base}/admin/settings`, {
      headers: { Cookie: admin.cookie },
      redirect: 'manual',
    });
    expect(adminPage.status).toBe(404);
    expect(await adminPage.text()).not.toContain('name="supportEmail"');

    for (const who of [free, admin]) {
      const refused = await saveBrand(first, who.cookie, { name: 'Hijacked' });
      expect(refused.status).toBe(404);
      const rollback = new URLSearchParams({ intent: 'rollback-brand', auditId: '1' });
      const refusedRollback = await fetch(`${first.base}/admin/settings`, {
        method: 'POST',
        headers: {
          Cookie: who.cookie,
          Origin: first.base,
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        body: rollback,
        redirect: 'manual',
      });
      expect(refusedRollback.status).toBe(404);
    }
    expect(await storedBrand()).toBeNull();

    const ownerPage = await fetch(`${first.base}/admin/settings`, {
      headers: { Cookie: owner.cookie },
    });
    expect(ownerPage.status).toBe(200);
    const html = await ownerPage.text();
    expect(html).toContain('name="supportEmail"');
    // Nothing set: the defaults, exactly as an install that never opened this page shows them.
    expect(html).toContain('placeholder="CourseGen"');
    expect(await page(second, '/')).toContain('aria-label="CourseGen home"');
  });

  it('refuse a logo that could run, is too big or is no PNG, JPEG or SVG, and a colour too light, with the reason', async () => {
    const svg = (text: string) => ({ bytes: text, type: 'image/svg+xml', filename: 'logo.svg' });
    for (const [fields, logo, message] of [
      [
        {},
        svg(SCRIPTED_SVG),
        'The logo&#x27;s SVG contains a script, which could run in a browser',
      ],
      [{}, svg(HANDLER_SVG), 'The logo&#x27;s SVG contains an event handler (onload)'],
      [
        {},
        {
          bytes: solidPng(400, [15, 118, 110]).subarray(0, 1),
          type: 'image/png',
          filename: 'x.png',
        },
        'The logo must be an SVG, PNG or JPEG image',
      ],
      [
        {},
        { bytes: GIF, type: 'image/gif', filename: 'logo.gif' },
        'The logo must be an SVG, PNG or JPEG image',
      ],
      [
        {},
        {
          bytes: Buffer.concat([solidPng(4, [0, 0, 0]), Buffer.alloc(210 * 1024)]),
          type: 'image/png',
          filename: 'big.png',
        },
        'The logo is 211 KB; it may be at most 200 KB',
      ],
      [{ accent: 'teal' }, undefined, 'The accent colour must be a hex colour such as #4338ca'],
      [
        { accent: '#ffcc00' },
        undefined,
        'The accent colour #ffcc00 has a contrast of 1.5:1 with white; white text on it would be hard to read',
      ],
      [{ supportEmail: 'help at acme' }, undefined, 'The support email must be an email address'],
    ] as const) {
      const response = await saveBrand(first, owner.cookie, { name: NAME, ...fields }, logo);
      expect(response.status).toBe(400);
      // The page again, its message on it (a form without JavaScript).
      expect(await response.text()).toContain(message);
    }
    expect(await storedBrand()).toBeNull();
  });

  it('reach every web process without a restart: pages, logo, email, receipt and certificate', async () => {
    // Both processes have read the brand (and keep it a moment) before the change.
    for (const web of [first, second])
      expect(await page(web, '/pricing')).toContain('CourseGen home');

    const png = solidPng(64, [15, 118, 110]);
    const saved = await saveBrand(
      first,
      owner.cookie,
      { name: NAME, accent: '#0F766E', supportEmail: 'Help@Acme.test' },
      { bytes: png, type: 'image/png', filename: 'acme.png' },
    );
    expect(saved.status).toBe(200);
    expect(await saved.text()).toContain('Brand saved');

    // The other process: within its short freshness window, with no restart and no signal.
    const pricing = await until(async () => {
      const html = await page(second, '/pricing');
      return html.includes(`${NAME} home`) ? html : undefined;
    }, 10_000);
    expect(pricing).toContain(`<title>Pricing | ${NAME}</title>`);
    expect(pricing).toContain(':root{--primary:#0f766e}');
    expect(pricing).toContain('href="mailto:help@acme.test"');
    const logoUrl = /<img src="(\/brand\/logo\/[0-9a-f]+\.png)"/.exec(pricing)?.[1];
    expect(logoUrl).toBeDefined();
    expect(await page(second, '/')).toContain(logoUrl!);

    const logo = await fetch(`${second.base}${logoUrl}`);
    expect(logo.status).toBe(200);
    expect(logo.headers.get('content-type')).toBe('image/png');
    expect(logo.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(Buffer.from(await logo.arrayBuffer()).equals(png)).toBe(true);
    expect(
      (await fetch(`${second.base}/brand/logo/0123456789abcdef0123456789abcdef.png`)).status,
    ).toBe(404);

    // A member's email, sent by the other process, under the brand.
    const forgot = await fetch(`${second.base}/forgot`, {
      method: 'POST',
      headers: { Origin: second.base, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ email: free.member.email }),
    });
    expect(forgot.status).toBe(200);
    const mail = await until(async () => {
      const [row] = await database()
        .select()
        .from(tables.outboxEmails)
        .where(eq(tables.outboxEmails.to, free.member.email));
      return row;
    }, 10_000);
    expect(mail.subject).toBe(`Reset your ${NAME} password`);
    expect(mail.from).toBe(`"${NAME}" <no-reply@coursegen.local>`);
    expect(mail.html).toContain(`${second.base}${logoUrl}`);
    expect(mail.html).toContain('background:#0f766e');
    expect(mail.html).toContain('mailto:help@acme.test');

    // The receipt PDF and the certificate drawn by any process: this one read nothing before.
    const receipt = await receiptPdf(
      {
        number: 7,
        amountCents: 800,
        currency: 'USD',
        paidAt: new Date(),
        nextBillingAt: null,
        plan: 'monthly',
      } as Receipt,
      {
        provider: 'paypal',
        providerSubscriptionId: 'I-BRAND',
        customer: null,
        startedAt: null,
      } as unknown as SubscriptionRow,
      (await brand()).name,
    );
    const parser = new PDFParse({ data: new Uint8Array(receipt) });
    try {
      expect((await parser.getText()).text).toContain(NAME);
    } finally {
      await parser.destroy();
    }
    const certificate = await currentBranding();
    expect(certificate.companyName).toBe(NAME);
    expect(certificate.logoHref).toBe(`data:image/png;base64,${png.toString('base64')}`);

    const audit = await database()
      .select()
      .from(tables.adminAudit)
      .where(eq(tables.adminAudit.action, 'save-brand'));
    expect(audit).toHaveLength(1);
    expect(audit[0]!.actorEmail).toBe(owner.member.email);
    expect(JSON.parse(audit[0]!.detail)).toMatchObject({
      before: { name: null, accent: null, logo: null },
      after: {
        name: NAME,
        accent: '#0f766e',
        supportEmail: 'help@acme.test',
        logo: { type: 'image/png' },
      },
    });
  });

  it('keep an SVG logo as a plain drawing, and roll back from their audit entry on every process', async () => {
    const saved = await saveBrand(
      second,
      owner.cookie,
      { name: NAME, accent: '#0f766e', supportEmail: 'help@acme.test' },
      { bytes: PLAIN_SVG, type: 'image/svg+xml', filename: 'acme.svg' },
    );
    expect(saved.status).toBe(200);
    const home = await until(async () => {
      const html = await page(first, '/');
      return /\/brand\/logo\/[0-9a-f]+\.svg/.test(html) ? html : undefined;
    }, 10_000);
    const svgUrl = /\/brand\/logo\/[0-9a-f]+\.svg/.exec(home)![0];
    const svg = await fetch(`${first.base}${svgUrl}`);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    expect(svg.headers.get('content-security-policy')).toContain("default-src 'none'");
    const kept = await svg.text();
    expect(kept).toContain('<circle cx="5" cy="5" r="4" fill="#0f766e">');
    // Editor metadata and unknown elements are left out of the kept file.
    expect(kept).not.toContain('inkscape');
    expect(kept).not.toContain('made by hand');

    const changes = await database()
      .select()
      .from(tables.adminAudit)
      .where(eq(tables.adminAudit.action, 'save-brand'));
    const firstChange = changes.sort((a, b) => a.id - b.id)[0]!;
    const rollBack = (cookie: string, auditId: string) =>
      fetch(`${second.base}/admin/settings`, {
        method: 'POST',
        headers: {
          Cookie: cookie,
          Origin: second.base,
          'Content-Type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({ intent: 'rollback-brand', auditId }),
      });
    const unknown = await rollBack(owner.cookie, '999999');
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('No such change of the brand');
    // Rolling back the first save: the install's defaults again, everywhere.
    const rolledBack = await rollBack(owner.cookie, String(firstChange.id));
    expect(rolledBack.status).toBe(200);
    expect(await rolledBack.text()).toContain('Brand rolled back');
    await until(async () => {
      const html = await page(first, '/pricing');
      return html.includes('CourseGen home') && !html.includes('--primary:') ? html : undefined;
    }, 10_000);
    const owned = await fetch(`${first.base}/admin/settings`, {
      headers: { Cookie: owner.cookie },
    }).then((r) => r.text());
    expect(owned).toContain('Rollback: Name: Acme Academy → default; Accent: #0f766e → default');
  });
});

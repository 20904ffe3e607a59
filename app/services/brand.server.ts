import { createHash } from 'node:crypto';
import { z } from 'zod';
import {
  contrastRatio,
  MAX_BRAND_NAME,
  MIN_ACCENT_CONTRAST,
  normalizeHex,
  type Brand,
  type LogoType,
} from '~/domain/brand';
import { fail, ok, type Result } from '~/domain/result';
import { isMainAdminRole } from '~/domain/roles';
import { getAuditEntry, listAuditOf, recordAudit } from '~/models/admin.server';
import { readSetting, writeSetting } from '~/models/settings.server';
import { freshSetting } from './fresh-setting.server';
import type { User } from '~/models/users.server';
import { env } from '~/utils/env.server';
import { hasForbiddenCharacters } from '~/utils/text';
import { checkLogo } from './brand-logo.server';

/**
 * The brand as the operator set it (ADR 0062): the one way server code reads the site's name,
 * logo, accent and support email. Stored as JSON in `settings` under `brand`; a field left unset
 * there is the environment's (COMPANY_NAME, LOGO_URL) or the product's own. Kept fresh as the
 * plans are (ADR 0055): each process keeps what it read for at most a second, so a change reaches
 * every web process, worker and node without a restart.
 */
const BRAND_KEY = 'brand';
/** Each uploaded logo is its own row, named by its content, kept so a rollback can bring it back. */
const LOGO_KEY_PREFIX = 'brand-logo:';
const BRAND_FRESH_MS = 1_000;

export interface BrandSettings {
  name: string | null;
  accent: string | null;
  supportEmail: string | null;
  logo: { hash: string; type: LogoType } | null;
}

const NO_SETTINGS: BrandSettings = { name: null, accent: null, supportEmail: null, logo: null };

const storedSchema = z.object({
  name: z.string().min(1).max(MAX_BRAND_NAME).nullable().catch(null),
  accent: z
    .string()
    .regex(/^#[0-9a-f]{6}$/)
    .nullable()
    .catch(null),
  supportEmail: z.email().nullable().catch(null),
  logo: z
    .object({
      hash: z.string().regex(/^[0-9a-f]{16,64}$/),
      type: z.enum(['image/png', 'image/jpeg', 'image/svg+xml']),
    })
    .nullable()
    .catch(null),
});

/** Stored settings field by field; a field missing or damaged (a hand edit) is unset. */
function settingsOf(stored: unknown): BrandSettings {
  const parsed = storedSchema.safeParse({
    ...NO_SETTINGS,
    ...(typeof stored === 'object' && stored !== null ? stored : {}),
  });
  return parsed.success ? parsed.data : NO_SETTINGS;
}

const EXTENSIONS: Record<LogoType, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/svg+xml': 'svg',
};

/** The logo's address: its content's hash in the name, so it is cached for good (brand.logo.$file). */
const logoPath = (logo: { hash: string; type: LogoType }) =>
  `/brand/logo/${logo.hash}.${EXTENSIONS[logo.type]}`;

function resolve(settings: BrandSettings): Brand {
  const { COMPANY_NAME, LOGO_URL } = env();
  return {
    name: settings.name ?? COMPANY_NAME,
    logoUrl: settings.logo ? logoPath(settings.logo) : LOGO_URL || '/logo.svg',
    accent: settings.accent,
    supportEmail: settings.supportEmail,
  };
}

const stored = freshSetting(BRAND_KEY, BRAND_FRESH_MS, (value) => {
  const settings = settingsOf(value);
  return { settings, brand: resolve(settings) };
});
const load = () => stored.read();

/** The brand every page, email, certificate, receipt and export shows. */
export async function brand(): Promise<Brand> {
  return (await load()).brand;
}

/** The settings behind `brand()`, for the settings page. */
async function brandSettings(): Promise<BrandSettings> {
  return (await load()).settings;
}

/** Forgets what this process read: the next `brand()` reads the database. */
function forgetBrand() {
  stored.forget();
}

/** An address of this site as a full URL (emails are read elsewhere); a full URL as it is. */
export function absoluteUrl(address: string): string {
  return address.startsWith('/') ? `${env().APP_URL}${address}` : address;
}

/**
 * Who an email is from: EMAIL_FROM's address, under the brand's name once the operator has set
 * one (the address stays the configured one, which the SMTP server allows to send).
 */
export async function emailSender(): Promise<string> {
  const configured = env().EMAIL_FROM;
  const { name } = await brandSettings();
  if (!name) return configured;
  const address = /<([^>]+)>/.exec(configured)?.[1] ?? configured.trim();
  return `"${name.replace(/["\\]/g, '')}" <${address}>`;
}

const logoCache = new Map<string, { type: LogoType; bytes: Buffer } | null>();

/** An uploaded logo's bytes by its hash; undefined when there is none of that name. */
export async function logoFile(
  hash: string,
): Promise<{ type: LogoType; bytes: Buffer } | undefined> {
  if (!/^[0-9a-f]{16,64}$/.test(hash)) return undefined;
  // A hash names one content for good, so what was read once is right forever.
  const known = logoCache.get(hash);
  if (known) return known;
  const row = await readSetting(`${LOGO_KEY_PREFIX}${hash}`);
  if (!row) return undefined;
  const { type, base64 } = JSON.parse(row.value) as { type: LogoType; base64: string };
  const file = { type, bytes: Buffer.from(base64, 'base64') };
  if (logoCache.size >= 8) logoCache.clear();
  logoCache.set(hash, file);
  return file;
}

/** The brand's uploaded logo as a data: URL (a certificate embeds it); null when none was. */
export async function uploadedLogoDataUrl(): Promise<string | null> {
  const { logo } = await brandSettings();
  const file = logo ? await logoFile(logo.hash) : undefined;
  return file ? `data:${file.type};base64,${file.bytes.toString('base64')}` : null;
}

const BRAND_MESSAGES = {
  saved: 'Brand saved',
  rolledBack: 'Brand rolled back',
  noSuchChange: 'No such change of the brand',
  mainAdminOnly: 'Not Found',
  name: `The site's name must be 1 to ${MAX_BRAND_NAME} characters on one line (leave it empty for the default)`,
  accent: 'The accent colour must be a hex colour such as #4338ca (leave it empty for the default)',
  contrast: (hex: string, ratio: number) =>
    `The accent colour ${hex} has a contrast of ${ratio.toFixed(1)}:1 with white; white text on it would be hard to read. Choose a darker colour (at least ${MIN_ACCENT_CONTRAST}:1)`,
  supportEmail: 'The support email must be an email address (leave it empty for none)',
} as const;

const optional = (value: unknown) =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : null;

function fieldsFrom(form: Record<string, unknown>): Result<Omit<BrandSettings, 'logo'>> {
  const name = optional(form.name);
  if (
    name !== null &&
    (name.length > MAX_BRAND_NAME || hasForbiddenCharacters(name) || /[\n\r]/.test(name))
  )
    return { ...fail(BRAND_MESSAGES.name), param: 'name' };
  const accentInput = optional(form.accent);
  const accent = accentInput === null ? null : normalizeHex(accentInput);
  if (accentInput !== null && accent === null)
    return { ...fail(BRAND_MESSAGES.accent), param: 'accent' };
  if (accent !== null) {
    const ratio = contrastRatio(accent, '#ffffff');
    if (ratio < MIN_ACCENT_CONTRAST)
      return { ...fail(BRAND_MESSAGES.contrast(accent, ratio)), param: 'accent' };
  }
  const supportEmail = optional(form.supportEmail);
  if (supportEmail !== null && !z.email().safeParse(supportEmail).success)
    return { ...fail(BRAND_MESSAGES.supportEmail), param: 'supportEmail' };
  return ok({ name, accent, supportEmail: supportEmail?.toLowerCase() ?? null });
}

/**
 * Saves the brand from the settings page: the main admin only (anyone else is told there is no
 * such page). A logo sent with the form replaces the current one once it passes `checkLogo`; none
 * sent keeps it; `removeLogo` goes back to the default. Audited with the settings before and after.
 */
async function saveBrand(
  actor: User,
  form: Record<string, unknown>,
  upload: File | null,
): Promise<Result<{ message: string }>> {
  if (!isMainAdminRole(actor.role)) return fail(BRAND_MESSAGES.mainAdminOnly, 404);
  const fields = fieldsFrom(form);
  if (!fields.ok) return fields;
  forgetBrand();
  let logo =
    form.removeLogo === 'on' || form.removeLogo === 'true' ? null : (await brandSettings()).logo;
  if (upload && upload.size > 0) {
    const checked = checkLogo(Buffer.from(await upload.arrayBuffer()));
    if (!checked.ok) return { ...checked, param: 'logo' };
    const hash = createHash('sha256').update(checked.value.bytes).digest('hex').slice(0, 32);
    await writeSetting(
      `${LOGO_KEY_PREFIX}${hash}`,
      JSON.stringify({ type: checked.value.type, base64: checked.value.bytes.toString('base64') }),
    );
    logo = { hash, type: checked.value.type };
  }
  await replaceBrand(actor, 'save-brand', { ...fields.value, logo });
  return ok({ message: BRAND_MESSAGES.saved });
}

const BRAND_ACTIONS = ['save-brand', 'rollback-brand'];

async function replaceBrand(
  actor: User,
  action: string,
  after: BrandSettings,
  extra: Record<string, unknown> = {},
) {
  forgetBrand();
  const before = await brandSettings();
  await writeSetting(BRAND_KEY, JSON.stringify(after));
  forgetBrand();
  await recordAudit(actor, action, JSON.stringify({ before, after, ...extra }));
}

function changeOf(detail: string): { before: BrandSettings; after: BrandSettings } | null {
  try {
    const parsed = JSON.parse(detail) as { before?: unknown; after?: unknown };
    return { before: settingsOf(parsed.before), after: settingsOf(parsed.after) };
  } catch {
    return null;
  }
}

/** What a change did, in words: "Name: CourseGen → Acme; Accent: default → #0f766e". */
function describeBrandChange(before: BrandSettings, after: BrandSettings): string {
  const shown = (value: string | null) => value ?? 'default';
  const logo = (value: BrandSettings['logo']) =>
    value ? `${EXTENSIONS[value.type].toUpperCase()} ${value.hash.slice(0, 8)}` : 'default';
  const parts = [
    before.name !== after.name && `Name: ${shown(before.name)} → ${shown(after.name)}`,
    before.accent !== after.accent && `Accent: ${shown(before.accent)} → ${shown(after.accent)}`,
    before.supportEmail !== after.supportEmail &&
      `Support email: ${before.supportEmail ?? 'none'} → ${after.supportEmail ?? 'none'}`,
    before.logo?.hash !== after.logo?.hash && `Logo: ${logo(before.logo)} → ${logo(after.logo)}`,
  ].filter((part): part is string => Boolean(part));
  return parts.join('; ') || 'No change';
}

/** The settings page's brand section: what is set, what the defaults are, and the latest changes. */
export async function brandPage() {
  forgetBrand();
  const [settings, current, rows] = await Promise.all([
    brandSettings(),
    brand(),
    listAuditOf(BRAND_ACTIONS, 10),
  ]);
  const { COMPANY_NAME, LOGO_URL } = env();
  return {
    settings: { name: settings.name, accent: settings.accent, supportEmail: settings.supportEmail },
    logoUrl: current.logoUrl,
    customLogo: settings.logo !== null,
    defaults: { name: COMPANY_NAME, logoUrl: LOGO_URL || '/logo.svg' },
    changes: rows.flatMap((row) => {
      const change = changeOf(row.detail);
      if (!change) return [];
      return [
        {
          id: row.id,
          at: row.createdAt.toISOString().slice(0, 16).replace('T', ' '),
          actorEmail: row.actorEmail,
          what: `${row.action === 'rollback-brand' ? 'Rollback: ' : ''}${describeBrandChange(change.before, change.after)}`,
        },
      ];
    }),
  };
}

/**
 * Rolls a change of the brand back from its audit entry: the brand becomes what it was before it
 * (a logo replaced then is still kept under its hash). The rollback is itself an entry.
 */
async function rollBackBrandChange(
  actor: User,
  auditId: unknown,
): Promise<Result<{ message: string }>> {
  if (!isMainAdminRole(actor.role)) return fail(BRAND_MESSAGES.mainAdminOnly, 404);
  const id = Number(auditId);
  const entry = Number.isSafeInteger(id) && id > 0 ? await getAuditEntry(id) : undefined;
  const change = entry && BRAND_ACTIONS.includes(entry.action) ? changeOf(entry.detail) : null;
  if (!change) return fail(BRAND_MESSAGES.noSuchChange, 404);
  await replaceBrand(actor, 'rollback-brand', change.before, { of: id });
  return ok({ message: BRAND_MESSAGES.rolledBack });
}

/** The settings page's two brand intents, beside the plans' own. */
export const isBrandIntent = (intent: unknown) =>
  intent === 'save-brand' || intent === 'rollback-brand';

/** The settings page's brand form: a save (with the logo sent, if any) or a rollback. */
export function brandFormAction(
  actor: User,
  body: Record<string, unknown>,
  upload: File | null,
): Promise<Result<{ message: string }>> {
  return body.intent === 'rollback-brand'
    ? rollBackBrandChange(actor, body.auditId)
    : saveBrand(actor, body, upload);
}

import fs from 'node:fs';
import path from 'node:path';
import type { ResvgRenderOptions } from '@resvg/resvg-js';
import { emailDelivery, sendEmail } from './vendors/mailer.server';
import { env } from '~/utils/env.server';
import { log } from '~/utils/logger.server';
import { CERTIFICATE_FILENAME, CERTIFICATE_HEIGHT, CERTIFICATE_WIDTH } from '~/utils/certificate';
import { escapeHtml } from '~/utils/escape';
import { fontFamilyFor, fontFiles, needsScriptFont } from '~/utils/fonts.server';
import { loadShaper, shapeText } from '~/utils/shaped-text.server';
import { projectPath } from '~/utils/project-files.server';

/**
 * Certificates are rendered here, on the server, from ONE SVG template to a
 * PNG. The certificate page, its Download button and the emailed attachment
 * all use `certificatePng`, so they are the same image. The image is a
 * document: it looks the same whichever theme the page around it uses.
 */

export { CERTIFICATE_FILENAME, CERTIFICATE_HEIGHT, CERTIFICATE_WIDTH };

/** Emailing a certificate on request: a few times an hour per member is plenty. */
/** What is printed on a certificate; stored once at completion so it never changes. */
export interface CertificateData {
  certificateId: string;
  memberName: string;
  courseTitle: string;
  completedAt: Date;
}

export interface Branding {
  companyName: string;
  /** A data: URL (SVG, PNG or JPEG) drawn at the top of the certificate. */
  logoHref: string;
  /** The public address of the verification page, without the id. */
  verifyBaseUrl: string;
}

/** en-GB, e.g. 22/11/2026. Dates are UTC so the page, image and verification page agree. */
export function formatCertificateDate(date: Date): string {
  return new Intl.DateTimeFormat('en-GB', {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(date);
}

export function verificationUrl(certificateId: string, baseUrl = env().APP_URL): string {
  return `${baseUrl.replace(/\/$/, '')}/verify/${encodeURIComponent(certificateId)}`;
}

// --- The template ---------------------------------------------------------------

// Characters XML 1.0 cannot hold at all; a member's name must never break the document.
// eslint-disable-next-line no-control-regex
const XML_INVALID = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function escapeXml(text: string): string {
  return escapeHtml(text.replace(XML_INVALID, ''));
}

/**
 * Average advance width of a glyph as a share of the font size, on the
 * generous side for the bundled fonts, so estimated lines never overflow.
 */
const SERIF_BOLD_EM = 0.58;

/** Greedy word wrap by estimated width; the last allowed line ends with an ellipsis if cut. */
export function wrapText(text: string, maxChars: number, maxLines: number): string[] {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let current = '';
  for (let word of words) {
    while (word.length > maxChars) {
      if (current) {
        lines.push(current);
        current = '';
      }
      lines.push(word.slice(0, maxChars));
      word = word.slice(maxChars);
    }
    const candidate = current ? `${current} ${word}` : word;
    if (candidate.length <= maxChars) current = candidate;
    else {
      lines.push(current);
      current = word;
    }
  }
  if (current) lines.push(current);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  const last = kept[maxLines - 1]!;
  kept[maxLines - 1] = `${last.slice(0, Math.max(1, maxChars - 1)).trimEnd()}…`;
  return kept;
}

interface FittedText {
  size: number;
  lines: string[];
}

/** The largest size at which the text fits the width in the allowed lines. */
export function fitText(
  text: string,
  width: number,
  sizes: number[],
  maxLines: (size: number) => number,
): FittedText {
  for (const size of sizes) {
    const maxChars = Math.floor(width / (size * SERIF_BOLD_EM));
    const lines = wrapText(text, maxChars, Number.POSITIVE_INFINITY);
    if (lines.length <= maxLines(size)) return { size, lines };
  }
  const size = sizes[sizes.length - 1]!;
  return {
    size,
    lines: wrapText(text, Math.floor(width / (size * SERIF_BOLD_EM)), maxLines(size)),
  };
}

const INK = '#1f2937';
const MUTED = '#4b5563';
const INDIGO = '#312e81';
const ACCENT = '#4338ca';
const GOLD = '#b08d3c';
const PAPER = '#fffdf8';
const SERIF = fontFamilyFor('', 'Playfair Display', 'serif');
const SANS = fontFamilyFor('', 'Inter', 'sans-serif');

/**
 * A name, title or company in a script resvg cannot lay out (Indic vowel signs, Arabic, CJK) is
 * drawn as outlines shaped by HarfBuzz, centred on x and shrunk to `maxWidth`; null for Latin
 * and Cyrillic text, which resvg draws in the certificate's own fonts.
 */
function scriptText(
  x: number,
  y: number,
  content: string,
  style: { size: number; bold: boolean; fill: string; maxWidth: number; attrs?: string },
): string | null {
  if (!needsScriptFont(content)) return null;
  const shaped = shapeText(content, style.size, style.bold);
  if (!shaped) return null;
  const fit = Math.min(1, style.maxWidth / Math.max(shaped.width, 1));
  const left = x - (shaped.width * fit) / 2;
  return `<g transform="translate(${left.toFixed(1)} ${y}) scale(${fit.toFixed(4)})" fill="${style.fill}" ${style.attrs ?? ''}>${shaped.paths.join('')}</g>`;
}

/** The one certificate template. Every text is escaped; sizes shrink to fit long names and titles. */
export function certificateSvg(data: CertificateData, branding: Branding): string {
  const W = CERTIFICATE_WIDTH;
  const H = CERTIFICATE_HEIGHT;
  const cx = W / 2;
  const name = fitText(data.memberName || ' ', 1500, [112, 100, 88, 76, 64, 56], () => 1);
  const title = fitText(data.courseTitle || ' ', 1560, [76, 68, 60, 52, 46], (size) =>
    size >= 68 ? 2 : 3,
  );
  const titleLineHeight = Math.round(title.size * 1.22);
  // The title block is centred vertically between the line above it and the seal.
  const titleBlock = (title.lines.length - 1) * titleLineHeight + title.size * 0.72;
  const firstBaseline = 944 - titleBlock / 2 + title.size * 0.72;
  const date = formatCertificateDate(data.completedAt);
  const verifyText = verificationUrl(data.certificateId, branding.verifyBaseUrl).replace(
    /^https?:\/\//,
    '',
  );
  const text = (
    x: number,
    y: number,
    content: string,
    attrs: string,
    anchor: 'start' | 'middle' | 'end' = 'middle',
  ) => `<text x="${x}" y="${y}" text-anchor="${anchor}" ${attrs}>${escapeXml(content)}</text>`;

  return `<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">
  <defs>
    <linearGradient id="band" x1="0" y1="0" x2="1" y2="0">
      <stop offset="0" stop-color="${ACCENT}"/>
      <stop offset="1" stop-color="${INDIGO}"/>
    </linearGradient>
    <radialGradient id="seal" cx="0.5" cy="0.45" r="0.6">
      <stop offset="0" stop-color="#e9d49a"/>
      <stop offset="1" stop-color="${GOLD}"/>
    </radialGradient>
  </defs>
  <rect width="${W}" height="${H}" fill="${PAPER}"/>
  <rect x="36" y="36" width="${W - 72}" height="${H - 72}" fill="none" stroke="url(#band)" stroke-width="16"/>
  <rect x="72" y="72" width="${W - 144}" height="${H - 144}" fill="none" stroke="${GOLD}" stroke-width="3"/>
  <rect x="84" y="84" width="${W - 168}" height="${H - 168}" fill="none" stroke="${GOLD}" stroke-width="1.5" stroke-opacity="0.6"/>
  ${[
    [84, 84],
    [W - 84, 84],
    [84, H - 84],
    [W - 84, H - 84],
  ]
    .map(
      ([x, y]) =>
        `<rect x="${x! - 14}" y="${y! - 14}" width="28" height="28" fill="${GOLD}" transform="rotate(45 ${x} ${y})"/>`,
    )
    .join('\n  ')}
  <image x="${cx - 60}" y="124" width="120" height="120" preserveAspectRatio="xMidYMid meet" href="${branding.logoHref}" xlink:href="${branding.logoHref}"/>
  ${scriptText(cx, 300, branding.companyName, { size: 34, bold: true, fill: ACCENT, maxWidth: 1400 }) ?? text(cx, 300, branding.companyName.toUpperCase(), `font-family="${SANS}" font-weight="600" font-size="34" letter-spacing="8" fill="${ACCENT}"`)}
  ${text(cx, 420, 'Certificate of Completion', `font-family="${SERIF}" font-weight="700" font-size="96" fill="${INK}"`)}
  <line x1="${cx - 180}" y1="462" x2="${cx + 180}" y2="462" stroke="${GOLD}" stroke-width="3"/>
  ${text(cx, 540, 'This is to certify that', `font-family="${SANS}" font-size="38" fill="${MUTED}"`)}
  ${scriptText(cx, 668, name.lines[0] ?? '', { size: name.size, bold: true, fill: INDIGO, maxWidth: 1500, attrs: 'data-field="name"' }) ?? text(cx, 668, name.lines[0] ?? '', `font-family="${SERIF}" font-weight="700" font-size="${name.size}" fill="${INDIGO}" data-field="name"`)}
  <line x1="${cx - 620}" y1="712" x2="${cx + 620}" y2="712" stroke="${GOLD}" stroke-width="2"/>
  ${text(cx, 780, 'has successfully completed the course', `font-family="${SANS}" font-size="38" fill="${MUTED}"`)}
  ${title.lines
    .map((line, i) => {
      const y = Math.round(firstBaseline + i * titleLineHeight);
      return (
        scriptText(cx, y, line, { size: title.size, bold: true, fill: INK, maxWidth: 1560 }) ??
        text(
          cx,
          y,
          line,
          `font-family="${SERIF}" font-weight="700" font-size="${title.size}" fill="${INK}"`,
        )
      );
    })
    .join('\n  ')}
  ${text(420, 1148, 'DATE OF COMPLETION', `font-family="${SANS}" font-weight="600" font-size="26" letter-spacing="4" fill="${MUTED}"`)}
  <line x1="240" y1="1170" x2="600" y2="1170" stroke="${GOLD}" stroke-width="2"/>
  ${text(420, 1226, date, `font-family="${SANS}" font-weight="600" font-size="44" fill="${INK}"`)}
  ${text(W - 420, 1148, 'CERTIFICATE ID', `font-family="${SANS}" font-weight="600" font-size="26" letter-spacing="4" fill="${MUTED}"`)}
  <line x1="${W - 600}" y1="1170" x2="${W - 240}" y2="1170" stroke="${GOLD}" stroke-width="2"/>
  ${text(W - 420, 1226, data.certificateId, `font-family="${SANS}" font-weight="600" font-size="40" fill="${INK}"`)}
  <g transform="translate(${cx} 1180)">
    <circle r="96" fill="url(#seal)"/>
    <circle r="80" fill="none" stroke="${PAPER}" stroke-width="3" stroke-dasharray="6 6"/>
    <path d="M-34 2 L-10 28 L38 -26" fill="none" stroke="${PAPER}" stroke-width="14" stroke-linecap="round" stroke-linejoin="round"/>
  </g>
  ${text(cx, 1318, `Verify this certificate at ${verifyText}`, `font-family="${SANS}" font-size="26" fill="${MUTED}"`)}
</svg>`;
}

// --- Fonts and logo --------------------------------------------------------------

function renderOptions(): ResvgRenderOptions {
  return {
    fitTo: { mode: 'original' },
    font: {
      loadSystemFonts: false,
      fontFiles: fontFiles(),
      defaultFontFamily: 'Inter',
      sansSerifFamily: 'Inter',
      serifFamily: 'Playfair Display',
    },
    shapeRendering: 2,
    textRendering: 1,
    imageRendering: 0,
    logLevel: 'off',
  };
}

function dataUrl(contentType: string, bytes: Buffer) {
  return `data:${contentType};base64,${bytes.toString('base64')}`;
}

function sniffImageType(bytes: Buffer, declared: string | null): string | null {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8) return 'image/jpeg';
  const head = bytes.subarray(0, 512).toString('utf8');
  if (/<svg[\s>]/i.test(head) || declared?.includes('svg')) return 'image/svg+xml';
  return null;
}

function bundledLogo(): string {
  return dataUrl('image/svg+xml', fs.readFileSync(projectPath('public', 'logo.svg')));
}

let logoCache: { key: string; href: Promise<string> } | undefined;

/**
 * The logo as a data: URL: LOGO_URL when it is set and loads (an absolute URL,
 * or a path under public/), otherwise the bundled public/logo.svg.
 */
export function logoHref(): Promise<string> {
  const configured = env().LOGO_URL;
  const key = configured ?? '';
  if (logoCache?.key === key) return logoCache.href;
  const href = (async () => {
    if (!configured) return bundledLogo();
    try {
      let bytes: Buffer;
      let declared: string | null = null;
      if (/^https?:\/\//i.test(configured)) {
        const response = await fetch(configured, { signal: AbortSignal.timeout(5_000) });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        declared = response.headers.get('content-type');
        bytes = Buffer.from(await response.arrayBuffer());
      } else {
        const file = path.resolve(projectPath('public'), configured.replace(/^\/+/, ''));
        if (!file.startsWith(projectPath('public') + path.sep)) throw new Error('outside public/');
        bytes = fs.readFileSync(file);
      }
      const type = sniffImageType(bytes, declared);
      if (!type) throw new Error('not a PNG, JPEG or SVG image');
      return dataUrl(type, bytes);
    } catch (error) {
      log.warn('certificate.logo_unavailable', { logoUrl: configured, error });
      // Try again on a later certificate; this one uses the bundled logo.
      logoCache = undefined;
      return bundledLogo();
    }
  })();
  logoCache = { key, href };
  return href;
}

export async function currentBranding(): Promise<Branding> {
  const { COMPANY_NAME, APP_URL } = env();
  return { companyName: COMPANY_NAME, logoHref: await logoHref(), verifyBaseUrl: APP_URL };
}

// --- Rendering -------------------------------------------------------------------

/** Renders the template to PNG off the main thread (resvg runs on libuv's pool). */
export async function renderCertificatePng(
  data: CertificateData,
  branding: Branding,
): Promise<Buffer> {
  await loadShaper();
  // resvg is loaded with the first certificate: a process that renders none never holds it.
  const { renderAsync } = await import('@resvg/resvg-js');
  const image = await renderAsync(certificateSvg(data, branding), renderOptions());
  return image.asPng();
}

const CACHE_SIZE = 16;
const pngCache = new Map<string, Promise<Buffer>>();

/**
 * The certificate PNG with the current branding. The few most recent are kept
 * in memory: the page shows the image and the member then downloads it.
 */
export async function certificatePng(data: CertificateData): Promise<Buffer> {
  const branding = await currentBranding();
  const key = JSON.stringify([
    data.certificateId,
    data.memberName,
    data.courseTitle,
    data.completedAt.getTime(),
    branding.companyName,
    branding.verifyBaseUrl,
    branding.logoHref.length,
  ]);
  const cached = pngCache.get(key);
  if (cached) {
    pngCache.delete(key);
    pngCache.set(key, cached);
    return cached;
  }
  const rendering = renderCertificatePng(data, branding);
  pngCache.set(key, rendering);
  rendering.catch(() => pngCache.delete(key));
  while (pngCache.size > CACHE_SIZE) pngCache.delete(pngCache.keys().next().value!);
  return rendering;
}

// --- Email -------------------------------------------------------------------------

export function certificateEmail(data: CertificateData, companyName: string, verifyUrl: string) {
  const date = formatCertificateDate(data.completedAt);
  const subject = `Your certificate for ${data.courseTitle}`;
  const html = `<!doctype html>
<html lang="en"><body style="font-family: system-ui, sans-serif; color: #111827; line-height: 1.6">
  <h1 style="font-size: 22px">Congratulations, ${escapeHtml(data.memberName)}!</h1>
  <p>You completed <strong>${escapeHtml(data.courseTitle)}</strong> on ${escapeHtml(date)}.
  Your certificate is attached to this email as ${CERTIFICATE_FILENAME}.</p>
  <p>Certificate ID: <strong>${escapeHtml(data.certificateId)}</strong><br>
  Anyone can check it at <a href="${escapeHtml(verifyUrl)}">${escapeHtml(verifyUrl)}</a>.</p>
  <p>${escapeHtml(companyName)}</p>
</body></html>`;
  const text = [
    `Congratulations, ${data.memberName}!`,
    `You completed ${data.courseTitle} on ${date}. Your certificate is attached as ${CERTIFICATE_FILENAME}.`,
    `Certificate ID: ${data.certificateId}`,
    `Anyone can check it at ${verifyUrl}`,
    companyName,
  ].join('\n\n');
  return { subject, html, text };
}

/**
 * Emails the certificate (PNG attached as certificate.png). The content is
 * always built here from the stored completion; callers choose only the
 * recipient, which must be the member's own address. Never throws.
 */
export async function emailCertificate(to: string, data: CertificateData): Promise<boolean> {
  if (emailDelivery() === 'disabled') {
    log.warn('email.disabled', { to, subject: 'certificate', hint: 'set SMTP_URL' });
    return false;
  }
  try {
    const png = await certificatePng(data);
    const { subject, html, text } = certificateEmail(
      data,
      env().COMPANY_NAME,
      verificationUrl(data.certificateId),
    );
    return await sendEmail({
      to,
      subject,
      html,
      text,
      attachments: [{ filename: CERTIFICATE_FILENAME, contentType: 'image/png', content: png }],
    });
  } catch (error) {
    log.error('certificate.email_failed', { certificateId: data.certificateId, error });
    return false;
  }
}

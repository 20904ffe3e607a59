import { CERTIFICATE_HEIGHT, CERTIFICATE_WIDTH } from '~/utils/certificate';
import { env } from '~/utils/env.server';
import { fontFamilyFor, needsScriptFont } from '~/utils/fonts.server';
import { shapeText } from '~/utils/shaped-text.server';
import { escapeXml, fitText } from './text-fit.server';

/**
 * Certificates are rendered on the server from ONE SVG template to a PNG (png.server.ts). The
 * certificate page, its Download button and the emailed attachment all use `certificatePng`, so
 * they are the same image. The image is a document: it looks the same whichever theme the page
 * around it uses.
 */

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

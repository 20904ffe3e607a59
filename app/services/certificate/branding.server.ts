import fs from 'node:fs';
import path from 'node:path';
import { brand, uploadedLogoDataUrl } from '~/services/brand.server';
import { env } from '~/utils/env.server';
import { log } from '~/utils/logger.server';
import { projectPath } from '~/utils/project-files.server';
import type { Branding } from './template.server';

/**
 * Whose certificate it is: the brand's name and logo (ADR 0062: the settings, else COMPANY_NAME
 * and LOGO_URL) and where certificates are verified.
 */

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
function logoHref(): Promise<string> {
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
  const [{ name }, uploaded] = await Promise.all([brand(), uploadedLogoDataUrl()]);
  return {
    companyName: name,
    logoHref: uploaded ?? (await logoHref()),
    verifyBaseUrl: env().APP_URL,
  };
}

import { createHash } from 'node:crypto';
import type { ResvgRenderOptions } from '@resvg/resvg-js';
import { fontFiles } from '~/utils/fonts.server';
import { loadShaper } from '~/utils/shaped-text.server';
import { currentBranding } from './branding.server';
import { certificateSvg, type Branding, type CertificateData } from './template.server';

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
    // Two logos of one length are not the same logo: the brand's can change at any time.
    createHash('sha256').update(branding.logoHref).digest('base64url'),
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

import type { LoaderFunctionArgs } from '@remix-run/node';
import { logoFile } from '~/services/brand.server';

/**
 * The operator's uploaded logo (ADR 0062). Its address names its content, so anyone may keep it
 * for a year; a new logo has a new address. Served with a policy that lets an SVG draw and nothing
 * else, should it ever be opened on its own.
 */
export async function loader({ params }: LoaderFunctionArgs) {
  const [, hash, extension] = /^([0-9a-f]{16,64})\.(png|jpg|svg)$/.exec(params.file ?? '') ?? [];
  const file = hash ? await logoFile(hash) : undefined;
  if (
    !file ||
    extension !== { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/svg+xml': 'svg' }[file.type]
  )
    throw new Response('Not Found', { status: 404 });
  return new Response(new Uint8Array(file.bytes), {
    headers: {
      'Content-Type': file.type,
      'Content-Length': String(file.bytes.length),
      'Cache-Control': 'public, max-age=31536000, immutable',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
      'X-Content-Type-Options': 'nosniff',
    },
  });
}

import type { LoaderFunctionArgs } from '@remix-run/node';
// Swagger UI from npm, bundled as assets of this build: the page works offline, from 'self'.
import swaggerBundle from 'swagger-ui-dist/swagger-ui-bundle.js?url';
import swaggerCss from 'swagger-ui-dist/swagger-ui.css?url';
// This site's setup (an accessible operation summary, a named servers list) and colour fixes;
// the setup a file of its own, never inlined as a data: URL, like the bundle before it.
import swaggerSetup from '~/assets/api-docs/swagger-setup.js?url&no-inline';
import docsCss from '~/styles/api-docs.css?url';
import { brand } from '~/services/brand.server';
import { escapeHtml } from '~/utils/escape';

/**
 * GET /api/docs: the OpenAPI document to read and try (Swagger UI). Its two scripts, both files of
 * the build, carry the request's CSP nonce, so the page runs under the site's policy unchanged: no
 * inline script, no eval, nothing from another origin (no validator badge, no fonts).
 */
export async function loader({ context }: LoaderFunctionArgs) {
  const nonce = escapeHtml(context.cspNonce ?? '');
  const title = `${(await brand()).name} API`;
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<link rel="stylesheet" href="${escapeHtml(swaggerCss)}">
<link rel="stylesheet" href="${escapeHtml(docsCss)}">
</head>
<body>
<div id="swagger-ui"></div>
<script nonce="${nonce}" src="${escapeHtml(swaggerBundle)}"></script>
<script nonce="${nonce}" src="${escapeHtml(swaggerSetup)}"></script>
</body>
</html>`;
  return new Response(html, {
    headers: { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' },
  });
}

import fs from 'node:fs';

/** Module hooks of opentelemetry-loads.mjs: the modules of OpenTelemetry imported, as they resolve. */
let file = '';
const RECORDED = /\/(@opentelemetry|import-in-the-middle|require-in-the-middle)\//;

export function initialize(data) {
  file = data.file;
}

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (RECORDED.test(resolved.url)) fs.appendFileSync(file, `${resolved.url}\n`);
  return resolved;
}

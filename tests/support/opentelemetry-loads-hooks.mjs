import fs from 'node:fs';

/** Module hooks of opentelemetry-loads.mjs: the `@opentelemetry` modules imported, as they resolve. */
let file = '';

export function initialize(data) {
  file = data.file;
}

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (resolved.url.includes('/@opentelemetry/')) fs.appendFileSync(file, `${resolved.url}\n`);
  return resolved;
}

import { Parser } from 'htmlparser2';
import { LOGO_TYPES, MAX_LOGO_BYTES, type LogoType } from '~/domain/brand';
import { fail, ok, type Result } from '~/domain/result';

/**
 * An uploaded logo checked before it is kept (ADR 0062): a PNG or JPEG by its first bytes, or an
 * SVG rebuilt from an allowlist of drawing elements. An SVG that could act (a script, an event
 * handler, a link to anything outside itself, an embedded document) is refused with the reason
 * rather than quietly cleaned, so the operator knows the file they see is not the one kept.
 */

const LOGO_MESSAGES = {
  empty: 'The logo file is empty',
  tooBig: (bytes: number) =>
    `The logo is ${Math.ceil(bytes / 1024)} KB; it may be at most ${MAX_LOGO_BYTES / 1024} KB`,
  type: 'The logo must be an SVG, PNG or JPEG image',
  unreadableSvg: 'The logo is not a readable SVG image',
  active: (what: string) =>
    `The logo's SVG contains ${what}, which could run in a browser; save it without it (a plain drawing) and upload it again`,
} as const;

function sniff(bytes: Buffer): LogoType | null {
  if (bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  const head = bytes
    .subarray(0, 1024)
    .toString('utf8')
    .replace(/^\uFEFF/, '');
  if (
    /^\s*(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!doctype[^[>]*(\[[\s\S]*?\])?\s*>\s*)?<svg[\s>/]/i.test(
      head,
    )
  )
    return 'image/svg+xml';
  return null;
}

/** Elements a logo draws with; anything else is left out of the kept file, children and all. */
const DRAWING = new Set(
  [
    'svg',
    'a',
    'g',
    'defs',
    'symbol',
    'use',
    'title',
    'desc',
    'path',
    'rect',
    'circle',
    'ellipse',
    'line',
    'polyline',
    'polygon',
    'text',
    'tspan',
    'textPath',
    'lineargradient',
    'radialgradient',
    'stop',
    'clippath',
    'mask',
    'pattern',
    'style',
    'filter',
    'fegaussianblur',
    'feoffset',
    'feblend',
    'fecolormatrix',
    'fecomposite',
    'feflood',
    'femerge',
    'femergenode',
    'fedropshadow',
    'marker',
    'image',
  ].map((name) => name.toLowerCase()),
);
/** Elements that run, load or change something: the file is refused. */
const ACTIVE: Record<string, string> = {
  script: 'a script',
  foreignobject: 'embedded HTML (foreignObject)',
  iframe: 'an embedded page',
  object: 'an embedded object',
  embed: 'an embedded object',
  handler: 'an event handler',
  listener: 'an event handler',
  animate: 'an animation that can change links',
  set: 'an animation that can change links',
  animatemotion: 'an animation',
  animatetransform: 'an animation',
};
const LINK_ATTRIBUTES = new Set(['href', 'xlink:href', 'src']);
/** Of the namespaced attributes (editors' metadata mostly), the ones drawing needs. */
const KEPT_NAMESPACED = new Set(['xmlns:xlink', 'xml:space']);
/** A reference to anything but a part of this file or an embedded PNG/JPEG. */
const OUTSIDE_REFERENCE = /url\(\s*['"]?(?!#)|@import|javascript:|expression\s*\(/i;

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function sanitizeSvg(source: string): Result<Buffer> {
  if (/<!(doctype|entity)[^>]*\[|<!entity/i.test(source))
    return fail(LOGO_MESSAGES.active('entity declarations'));
  const out: string[] = [];
  let refusal: string | null = null;
  let skipping = 0;
  let depth = 0;
  let sawRoot = false;
  const parser = new Parser(
    {
      onopentag(tag, attributes) {
        const name = tag.toLowerCase();
        if (ACTIVE[name]) refusal ??= ACTIVE[name];
        if (depth === 0) {
          if (name !== 'svg') refusal ??= 'no <svg> root';
          sawRoot = true;
        }
        depth++;
        // Every element's attributes are checked, kept or not: a refusal says what was there.
        const kept: string[] = [];
        for (const [attribute, value] of Object.entries(attributes)) {
          const key = attribute.toLowerCase();
          if (key.startsWith('on')) refusal ??= `an event handler (${attribute})`;
          else if (LINK_ATTRIBUTES.has(key)) {
            const target = value.trim();
            if (
              !target.startsWith('#') &&
              !/^data:image\/(png|jpeg);base64,[a-z0-9+/=\s]*$/i.test(target)
            )
              refusal ??= `a link to something outside the logo (${attribute}="${target.slice(0, 40)}")`;
            else kept.push(`${attribute}="${escapeXml(target)}"`);
          } else if (OUTSIDE_REFERENCE.test(value)) {
            refusal ??= `a reference to something outside the logo (${attribute})`;
          } else if (!key.includes(':') || KEPT_NAMESPACED.has(key)) {
            kept.push(`${attribute}="${escapeXml(value)}"`);
          }
        }
        if (skipping > 0 || !DRAWING.has(name)) {
          skipping++;
          return;
        }
        if (depth === 1 && !('xmlns' in attributes))
          kept.unshift('xmlns="http://www.w3.org/2000/svg"');
        out.push(`<${tag}${kept.length ? ` ${kept.join(' ')}` : ''}>`);
      },
      ontext(text) {
        if (skipping > 0) return;
        if (OUTSIDE_REFERENCE.test(text)) refusal ??= 'a style that loads something from outside';
        out.push(escapeXml(text));
      },
      onclosetag(tag) {
        depth--;
        if (skipping > 0) {
          skipping--;
          return;
        }
        out.push(`</${tag}>`);
      },
    },
    { xmlMode: true, recognizeCDATA: true, decodeEntities: true },
  );
  try {
    parser.write(source);
    parser.end();
  } catch {
    return fail(LOGO_MESSAGES.unreadableSvg);
  }
  if (refusal) return fail(LOGO_MESSAGES.active(refusal));
  if (!sawRoot || depth !== 0 || out.length === 0) return fail(LOGO_MESSAGES.unreadableSvg);
  return ok(Buffer.from(out.join(''), 'utf8'));
}

/** The logo to keep: its type and its bytes (an SVG as rebuilt), or why it is refused. */
export function checkLogo(bytes: Buffer): Result<{ type: LogoType; bytes: Buffer }> {
  if (bytes.length === 0) return fail(LOGO_MESSAGES.empty);
  if (bytes.length > MAX_LOGO_BYTES) return fail(LOGO_MESSAGES.tooBig(bytes.length));
  const type = sniff(bytes);
  if (!type || !LOGO_TYPES.includes(type)) return fail(LOGO_MESSAGES.type);
  if (type !== 'image/svg+xml') return ok({ type, bytes });
  const svg = sanitizeSvg(bytes.toString('utf8'));
  return svg.ok ? ok({ type, bytes: svg.value }) : svg;
}

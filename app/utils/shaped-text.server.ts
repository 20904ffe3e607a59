import fs from 'node:fs';
import path from 'node:path';
import { BUNDLED_FONTS, fontsDir, scriptFamilyOf } from './fonts.server';

/**
 * Text drawn as SVG outlines shaped by HarfBuzz, for renderers whose own text layout gets
 * complex scripts wrong (resvg misplaces Devanagari vowel signs and does not fall back from
 * one family to the next inside a run). Each run of one script is shaped with that script's
 * bundled font (Latin runs with Inter), so conjuncts, vowel signs and Arabic joining come out
 * as the script requires. ADR 0019.
 */
type HarfBuzz = typeof import('harfbuzzjs');
type HbFont = InstanceType<HarfBuzz['Font']>;

let loading: Promise<HarfBuzz> | undefined;
let hb: HarfBuzz | undefined;

/** Loads the shaper (WebAssembly) once; renderers await it before drawing. */
export function loadShaper(): Promise<HarfBuzz> {
  loading ??= import('harfbuzzjs').then((module) => (hb = module));
  return loading;
}

interface LoadedFont {
  font: HbFont;
  upem: number;
  /** The code points the font has glyphs for. */
  covers: Set<number>;
}

const fonts = new Map<string, LoadedFont>();
const LATIN_FAMILY = 'Inter';
const FAMILIES = [LATIN_FAMILY, ...new Set(BUNDLED_FONTS.map((font) => font.family))];

function fontFor(family: string, bold: boolean): LoadedFont | undefined {
  const candidates = BUNDLED_FONTS.filter((font) => font.family === family);
  const wanted = bold ? 700 : 400;
  const best = [...candidates].sort(
    (a, b) => Math.abs(a.weight - wanted) - Math.abs(b.weight - wanted),
  )[0];
  if (!best || !hb) return undefined;
  let loaded = fonts.get(best.file);
  if (!loaded) {
    const bytes = fs.readFileSync(path.join(fontsDir(), best.file));
    const face = new hb.Face(new hb.Blob(bytes));
    loaded = { font: new hb.Font(face), upem: face.upem, covers: new Set(face.collectUnicodes()) };
    fonts.set(best.file, loaded);
  }
  return loaded;
}

/**
 * Splits text into runs of one font. A letter or digit takes its script's family (Inter for
 * Latin and Cyrillic); spaces, punctuation and combining marks stay in the run they are in.
 * A character that font lacks goes to the first bundled family that has it.
 */
function runs(text: string, bold: boolean): { text: string; family: string }[] {
  const result: { text: string; family: string }[] = [];
  for (const char of text) {
    const last = result[result.length - 1];
    const code = char.codePointAt(0)!;
    const has = (candidate: string) => fontFor(candidate, bold)?.covers.has(code) ?? false;
    const letter = /[\p{L}\p{N}]/u.test(char);
    // A Han character outside the Chinese subset may be in the Japanese or Korean one.
    const preferred = letter ? (scriptFamilyOf(char) ?? LATIN_FAMILY) : last?.family;
    const family =
      (preferred && has(preferred) ? preferred : FAMILIES.find(has)) ?? preferred ?? LATIN_FAMILY;
    if (last?.family === family) last.text += char;
    else result.push({ text: char, family });
  }
  return result;
}

export interface ShapedText {
  /** SVG `<path>` elements in text units, drawn from x = 0 on the baseline. */
  paths: string[];
  /** The advance of the whole text, in the same units. */
  width: number;
  /** Characters no bundled font has (drawn as the font's empty box). */
  missing: number;
}

/** The text's glyph outlines at `size` (null before `loadShaper` has finished). */
export function shapeText(text: string, size: number, bold: boolean): ShapedText | null {
  if (!hb) return null;
  const paths: string[] = [];
  let x = 0;
  let missing = 0;
  // A right-to-left text (its first letter Arabic) puts its runs right to left; each Arabic
  // run comes out of HarfBuzz in visual order, a Latin word inside it stays left to right.
  const rtl = /^[^\p{L}]*\p{Script=Arabic}/u.test(text);
  const ordered = rtl ? runs(text, bold).reverse() : runs(text, bold);
  for (const run of ordered) {
    const loaded = fontFor(run.family, bold);
    if (!loaded) continue;
    const scale = size / loaded.upem;
    const buffer = new hb.Buffer();
    buffer.addText(run.text);
    buffer.guessSegmentProperties();
    hb.shape(loaded.font, buffer);
    const infos = buffer.getGlyphInfos();
    const positions = buffer.getGlyphPositions();
    infos.forEach((info, i) => {
      const position = positions[i]!;
      if (info.codepoint === 0) missing += 1;
      const d = loaded.font.glyphToPath(info.codepoint);
      if (d) {
        const gx = x + position.xOffset * scale;
        const gy = -position.yOffset * scale;
        paths.push(
          `<path transform="translate(${gx.toFixed(2)} ${gy.toFixed(2)}) scale(${scale.toFixed(5)} ${(-scale).toFixed(5)})" d="${d}"/>`,
        );
      }
      x += position.xAdvance * scale;
    });
  }
  return { paths, width: x, missing };
}

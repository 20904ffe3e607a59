import fs from 'node:fs';
import path from 'node:path';
import { BUNDLED_FONTS, fontsDir, scriptFamilyOf } from '~/utils/fonts.server';

/**
 * The PDF export's fonts: the repository's bundled files (app/utils/fonts.server.ts), so every
 * course language has glyphs. PDFKit cannot fall back from one font to the next, so text is
 * cut into runs of one script and each run is drawn with that script's family — the same rule
 * the certificate's shaper follows. Latin, Cyrillic and Vietnamese use Inter.
 */
export const LATIN_FAMILY = 'Inter';

export interface FontRun {
  text: string;
  /** The name the font is registered under in the PDF document. */
  font: string;
}

const bytes = new Map<string, Buffer>();

/** Reads a font file once per process; every export reuses the bytes. */
function fontBytes(file: string): Buffer {
  let data = bytes.get(file);
  if (!data) {
    data = fs.readFileSync(path.join(fontsDir(), file));
    bytes.set(file, data);
  }
  return data;
}

/** The registered name of a family at a weight: the nearest file the repository has. */
export function fontName(family: string, bold: boolean): string {
  const candidates = BUNDLED_FONTS.filter((font) => font.family === family);
  const wanted = bold ? 700 : 400;
  const best = [...candidates].sort(
    (a, b) => Math.abs(a.weight - wanted) - Math.abs(b.weight - wanted),
  )[0];
  return best?.file ?? 'Inter-Regular.ttf';
}

/** The family runs of `text` need, so a document registers only those (CJK files are big). */
export function familiesOf(text: string): Set<string> {
  const families = new Set([LATIN_FAMILY]);
  for (const char of text) {
    const family = scriptFamilyOf(char);
    if (family) families.add(family);
  }
  return families;
}

/** Registers the files of the given families (both weights) with a PDFKit document. */
export function registerFonts(
  doc: { registerFont(name: string, src: Buffer): unknown },
  families: Iterable<string>,
) {
  const wanted = new Set(families);
  for (const font of BUNDLED_FONTS) {
    if (wanted.has(font.family)) doc.registerFont(font.file, fontBytes(font.file));
  }
}

/**
 * Cuts text into runs of one font. A letter or digit takes its script's family; spaces,
 * punctuation and combining marks stay in the run they are in, so a cluster is never split.
 */
export function fontRuns(text: string, bold: boolean, base = LATIN_FAMILY): FontRun[] {
  const runs: FontRun[] = [];
  for (const char of text) {
    const last = runs.at(-1);
    const letter = /[\p{L}\p{N}]/u.test(char);
    const family = letter ? (scriptFamilyOf(char) ?? LATIN_FAMILY) : undefined;
    const font = family ? fontName(family, bold) : (last?.font ?? fontName(base, bold));
    if (last?.font === font) last.text += char;
    else runs.push({ text: char, font });
  }
  return runs;
}

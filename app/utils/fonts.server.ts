import fs from 'node:fs';
import path from 'node:path';
import { projectPath } from './project-files.server';

/**
 * Every font the server draws text with (the certificate through resvg, exports), in one list
 * so each renderer covers every script a course can be written in (app/domain/languages.ts).
 * Latin, Cyrillic and Vietnamese come from Inter and Playfair Display; each other script from
 * its Noto Sans family. The CJK files are subsets of the common characters (ADR 0019,
 * scripts/subset-cjk-fonts.py). All are under the SIL OFL; the licences sit beside them.
 */
export interface BundledFont {
  file: string;
  family: string;
  weight: 400 | 600 | 700;
  /** What it is there for: a renderer may pick by script. */
  script: 'latin' | 'devanagari' | 'bengali' | 'tamil' | 'telugu' | 'arabic' | 'thai' | 'cjk';
}

export const BUNDLED_FONTS: readonly BundledFont[] = [
  { file: 'Inter-Regular.ttf', family: 'Inter', weight: 400, script: 'latin' },
  { file: 'Inter-SemiBold.ttf', family: 'Inter', weight: 600, script: 'latin' },
  { file: 'PlayfairDisplay-Bold.ttf', family: 'Playfair Display', weight: 700, script: 'latin' },
  ...(
    [
      ['Devanagari', 'devanagari'],
      ['Bengali', 'bengali'],
      ['Tamil', 'tamil'],
      ['Telugu', 'telugu'],
      ['Arabic', 'arabic'],
      ['Thai', 'thai'],
    ] as const
  ).flatMap(([name, script]): BundledFont[] => [
    { file: `NotoSans${name}-Regular.ttf`, family: `Noto Sans ${name}`, weight: 400, script },
    { file: `NotoSans${name}-Bold.ttf`, family: `Noto Sans ${name}`, weight: 700, script },
  ]),
  { file: 'NotoSansSC-Regular-subset.ttf', family: 'Noto Sans SC', weight: 400, script: 'cjk' },
  { file: 'NotoSansJP-Regular-subset.ttf', family: 'Noto Sans JP', weight: 400, script: 'cjk' },
  { file: 'NotoSansKR-Regular-subset.ttf', family: 'Noto Sans KR', weight: 400, script: 'cjk' },
];

/**
 * The families to name after a text's own font, so a glyph it lacks comes from the font of
 * its script (a renderer that falls back by itself still prefers these, in this order).
 */
const SCRIPT_FALLBACK_FAMILIES: readonly string[] = [
  ...new Set(BUNDLED_FONTS.filter((font) => font.script !== 'latin').map((font) => font.family)),
];

/** The scripts that have their own bundled family. */
const SCRIPT_RANGES: [RegExp, string][] = [
  [/\p{Script=Devanagari}/u, 'Noto Sans Devanagari'],
  [/\p{Script=Bengali}/u, 'Noto Sans Bengali'],
  [/\p{Script=Tamil}/u, 'Noto Sans Tamil'],
  [/\p{Script=Telugu}/u, 'Noto Sans Telugu'],
  [/\p{Script=Arabic}/u, 'Noto Sans Arabic'],
  [/\p{Script=Thai}/u, 'Noto Sans Thai'],
  [/\p{Script=Hangul}/u, 'Noto Sans KR'],
  // Kana before Han: a Japanese text is drawn with Japanese glyph forms.
  [/[\p{Script=Hiragana}\p{Script=Katakana}]/u, 'Noto Sans JP'],
  [/\p{Script=Han}/u, 'Noto Sans SC'],
];

/**
 * The font-family list for one text: the family of each script the text is written in first,
 * so a whole run (its spaces and marks too) is shaped by one font — glyph-by-glyph fallback
 * breaks Indic clusters — then `primary`, the other scripts' families and `generic`.
 */
export function fontFamilyFor(text: string, primary: string, generic: 'serif' | 'sans-serif') {
  const own = SCRIPT_RANGES.filter(([range]) => range.test(text)).map(([, family]) => family);
  const order = [...own, primary, ...SCRIPT_FALLBACK_FAMILIES.filter((f) => !own.includes(f))];
  return [...new Set(order)]
    .map((family) => `'${family}'`)
    .concat(generic)
    .join(', ');
}

/** The bundled family of a character's script; undefined for Latin, Cyrillic and the rest. */
export function scriptFamilyOf(char: string): string | undefined {
  return SCRIPT_RANGES.find(([range]) => range.test(char))?.[1];
}

/** True when the text has a character of a script with its own bundled family. */
export function needsScriptFont(text: string): boolean {
  return SCRIPT_RANGES.some(([range]) => range.test(text));
}

export function fontsDir(): string {
  return projectPath('app', 'assets', 'fonts');
}

/**
 * The absolute paths of the bundled fonts (all, or those `pick` keeps). Renderers load them
 * explicitly and never system fonts (the Docker image has none). Found from the working
 * directory, which is the project root for `npm start`, the tests and the Docker image.
 */
export function fontFiles(pick: (font: BundledFont) => boolean = () => true): string[] {
  const files = BUNDLED_FONTS.filter(pick).map((font) => path.join(fontsDir(), font.file));
  const missing = files.filter((file) => !fs.existsSync(file));
  if (missing.length > 0)
    throw new Error(`Bundled fonts not found: ${missing.join(', ')} (run from the project root)`);
  return files;
}

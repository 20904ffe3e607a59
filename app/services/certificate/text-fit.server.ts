import { escapeHtml } from '~/utils/escape';

/** Text on the certificate: safe in its SVG, and wrapped and sized to fit its place. */

// Characters XML 1.0 cannot hold at all; a member's name must never break the document.
// eslint-disable-next-line no-control-regex
const XML_INVALID = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

export function escapeXml(text: string): string {
  return escapeHtml(text.replace(XML_INVALID, ''));
}

/**
 * Average advance width of a glyph as a share of the font size, on the
 * generous side for the bundled fonts, so estimated lines never overflow.
 */
const SERIF_BOLD_EM = 0.58;

/** Greedy word wrap by estimated width; the last allowed line ends with an ellipsis if cut. */
export function wrapText(text: string, maxChars: number, maxLines: number): string[] {
  const words = text.trim().split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let current = '';
  for (let word of words) {
    while (word.length > maxChars) {
      if (current) {
        lines.push(current);
        current = '';
      }
      lines.push(word.slice(0, maxChars));
      word = word.slice(maxChars);
    }
    const candidate = current ? `${current} ${word}` : word;
    if (candidate.length <= maxChars) current = candidate;
    else {
      lines.push(current);
      current = word;
    }
  }
  if (current) lines.push(current);
  if (lines.length <= maxLines) return lines;
  const kept = lines.slice(0, maxLines);
  const last = kept[maxLines - 1]!;
  kept[maxLines - 1] = `${last.slice(0, Math.max(1, maxChars - 1)).trimEnd()}…`;
  return kept;
}

interface FittedText {
  size: number;
  lines: string[];
}

/** The largest size at which the text fits the width in the allowed lines. */
export function fitText(
  text: string,
  width: number,
  sizes: number[],
  maxLines: (size: number) => number,
): FittedText {
  for (const size of sizes) {
    const maxChars = Math.floor(width / (size * SERIF_BOLD_EM));
    const lines = wrapText(text, maxChars, Number.POSITIVE_INFINITY);
    if (lines.length <= maxLines(size)) return { size, lines };
  }
  const size = sizes[sizes.length - 1]!;
  return {
    size,
    lines: wrapText(text, Math.floor(width / (size * SERIF_BOLD_EM)), maxLines(size)),
  };
}

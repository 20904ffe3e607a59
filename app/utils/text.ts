/** The first `words` words of a title, with "..." when some were cut. */
export function truncateWords(text: string, words: number): string {
  const parts = text.trim().split(/\s+/);
  const kept = parts.slice(0, words).join(' ');
  return parts.length > words ? `${kept}...` : kept;
}

export const FORBIDDEN_CHARACTERS_MESSAGE = 'This field contains characters that are not allowed';

/**
 * Characters refused in anything a member types: control characters other than tab and line
 * breaks, the non-characters U+FFFE and U+FFFF, bidirectional overrides and isolates (which can
 * make a title on a public page read as something else) and lone surrogates.
 */
const FORBIDDEN =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uFFFE\uFFFF\u202A-\u202E\u2066-\u2069]/;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function hasForbiddenCharacters(text: string): boolean {
  return FORBIDDEN.test(text) || LONE_SURROGATE.test(text);
}

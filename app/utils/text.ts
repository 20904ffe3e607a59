/** The first `words` words of a title, with "..." when some were cut. */
export function truncateWords(text: string, words: number): string {
  const parts = text.trim().split(/\s+/);
  const kept = parts.slice(0, words).join(' ');
  return parts.length > words ? `${kept}...` : kept;
}

/**
 * A stored lesson's text without its markup, for a prompt (the tutor, flashcards): tags become
 * spaces, the entities the sanitizer writes become characters again, and runs of blanks shrink.
 */
export function htmlToPlainText(html: string, maxChars: number): string {
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .trim()
    .slice(0, maxChars);
}

/** What a member is told, naming the field: "Name contains characters that are not allowed". */
export function forbiddenCharactersMessage(field = 'This field'): string {
  return `${field} contains characters that are not allowed`;
}

/**
 * Characters refused in anything a member types: control characters (C0 other than tab and line
 * breaks, DEL, C1), the non-characters U+FFFE and U+FFFF, and bidirectional overrides and
 * isolates, which can make a title on a public page read as something else.
 */
const FORBIDDEN =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF\u202A-\u202E\u2066-\u2069]/;

/** A name, an email or a title is one line: tabs and line breaks (U+2028/9 too) are junk there. */
const LINE_BREAK_OR_TAB = /[\t\n\r\u2028\u2029]/;

/** Half of a UTF-16 pair without its other half: no character at all. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function hasForbiddenCharacters(
  text: string,
  { singleLine = false }: { singleLine?: boolean } = {},
): boolean {
  return (
    FORBIDDEN.test(text) ||
    LONE_SURROGATE.test(text) ||
    (singleLine && LINE_BREAK_OR_TAB.test(text))
  );
}

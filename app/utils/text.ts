/** The first `words` words of a title, with "..." when some were cut. */
export function truncateWords(text: string, words: number): string {
  const parts = text.trim().split(/\s+/);
  const kept = parts.slice(0, words).join(' ');
  return parts.length > words ? `${kept}...` : kept;
}

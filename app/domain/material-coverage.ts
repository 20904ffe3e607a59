import type { MaterialSection } from '../../db/schema';

/**
 * Which part of the member's material an outline's topic teaches (ADR 0058), browser-safe: the
 * outline page says it of every topic as the member edits it. A lesson names a section when its
 * title holds at least half of the section heading's words (all of them, as planned).
 */

/** Words that carry no subject, wherever they are. */
const FUNCTION_WORDS = new Set(
  'the and for with from that this what how why are was were its into about your you our their'.split(
    ' ',
  ),
);
/** A text's words: lower case, three letters or more, function words aside. */
export const allWords = (text: string): string[] =>
  (text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? []).filter((w) => !FUNCTION_WORDS.has(w));

/** A section's own heading, without the "(part 2)" a long section's later parts carry. */
const baseHeading = (heading: string) => heading.replace(/\s*\(part \d+\)$/, '');

/** A heading's or title's words, and its numbers ("1.3", "2"): "1.3 Rules" is not "3.2 Rules". */
const headingWords = (text: string): string[] =>
  (text.toLowerCase().match(/\d+(?:\.\d+)*|[\p{L}\p{N}]{3,}/gu) ?? []).filter(
    (w) => !FUNCTION_WORDS.has(w),
  );

/**
 * The share (0–1) of a section heading's words that `title` holds: 1 when the title names the
 * section ("Understanding 1.3 Language used" and "1.3 Language used").
 */
export function headingShare(heading: string, title: string): number {
  const words = new Set(headingWords(baseHeading(heading)));
  if (words.size === 0) return 0;
  const titleWords = new Set(headingWords(title));
  let held = 0;
  for (const word of words) if (titleWords.has(word)) held += 1;
  return held / words.size;
}

/** A long section's later parts: "Heading (part 2)". */
export const isLaterPart = (heading: string) => /\(part \d+\)$/.test(heading);

/** "Pages 3–5", "Page 3", or for a document without pages "Sections 4–6". */
export function coverageLabel(range: {
  first: number;
  last: number;
  pageStart: number | null;
  pageEnd: number | null;
}): string {
  if (range.pageStart !== null && range.pageEnd !== null)
    return range.pageStart === range.pageEnd
      ? `Page ${range.pageStart}`
      : `Pages ${range.pageStart}–${range.pageEnd}`;
  return range.first === range.last
    ? `Section ${range.first + 1}`
    : `Sections ${range.first + 1}–${range.last + 1}`;
}

/**
 * The part of the document an outline's topic teaches, as its page says: the sections its
 * lessons name (by their headings, as planned, or as the member edited them), or null when its
 * lessons name none (a member's own topic).
 */
export function topicCoverage(
  sections: Pick<MaterialSection, 'heading' | 'pageStart' | 'pageEnd'>[],
  topic: { title: string; lessons: { title: string }[] },
): string | null {
  const named = new Set<number>();
  for (const lesson of topic.lessons)
    for (const part of lesson.title.split('; ')) {
      // The section whose heading the lesson names most of (half at least); the first on a tie.
      let best = -1;
      let bestShare = 0;
      sections.forEach((section, index) => {
        const share = headingShare(section.heading, part);
        if (!isLaterPart(section.heading) && share >= 0.5 && share > bestShare)
          [best, bestShare] = [index, share];
      });
      if (best >= 0) {
        named.add(best);
        // The section's later parts are taught with it.
        for (
          let next = best + 1;
          next < sections.length && isLaterPart(sections[next]!.heading);
          next += 1
        )
          named.add(next);
      }
    }
  if (named.size === 0) return null;
  const indexes = [...named].sort((a, b) => a - b);
  const covered = indexes.map((i) => sections[i]!);
  const starts = covered.map((s) => s.pageStart).filter((p): p is number => p !== undefined);
  const ends = covered.map((s) => s.pageEnd).filter((p): p is number => p !== undefined);
  return coverageLabel({
    first: indexes[0]!,
    last: indexes[indexes.length - 1]!,
    pageStart: starts.length ? Math.min(...starts) : null,
    pageEnd: ends.length ? Math.max(...ends) : null,
  });
}

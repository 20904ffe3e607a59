import type { LessonSource, MaterialSection } from '../../../db/schema';

/**
 * Which sections of the member's material a lesson is written from (ADR 0032). The rule, kept
 * simple enough to explain on one line of docs/features.md:
 *
 * - the query's words are the lesson title's (weight 1) and its topic title's (weight ½), in
 *   lower case, three letters or more, less a short list of words every title uses;
 * - a section scores, for each query word, its weight × its rarity (ln(1 + sections ÷ sections
 *   holding the word)) × 3 when the word is in the section's heading, + 1 when it is in its text;
 * - the best MAX_PASSAGES sections that score above zero are the lesson's sources, given to the
 *   model in document order within PASSAGE_BUDGET_CHARS characters. None scores: no sources,
 *   and the lesson is written from the model's own knowledge, as without material.
 */
const MAX_PASSAGES = 3;
const PASSAGE_BUDGET_CHARS = 6_000;
/** What the outline's prompt may carry of the material: the headings and each section's opening. */
const OUTLINE_DIGEST_CHARS = 12_000;

const STOP_WORDS = new Set(
  (
    'the and for with from that this what how why are was were its into about your you our their ' +
    'introduction overview basics understanding key points part lesson topic example examples ' +
    'practice more new using use uses'
  ).split(' '),
);

export function wordsOf(text: string): Set<string> {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]{3,}/gu) ?? [];
  return new Set(words.filter((word) => !STOP_WORDS.has(word)));
}

export interface Passage {
  /** Index of the section in the document. */
  index: number;
  section: MaterialSection;
  score: number;
}

/** The sections a lesson on `lesson` (in topic `topic`) draws on, in document order. */
export function relevantSections(
  sections: MaterialSection[],
  query: { lesson: string; topic?: string },
  max = MAX_PASSAGES,
): Passage[] {
  const weights = new Map<string, number>();
  for (const word of wordsOf(query.topic ?? '')) weights.set(word, 0.5);
  for (const word of wordsOf(query.lesson)) weights.set(word, 1);
  if (weights.size === 0 || sections.length === 0) return [];
  const indexed = sections.map((section) => ({
    heading: wordsOf(section.heading),
    text: wordsOf(section.text),
  }));
  const rarity = new Map<string, number>();
  for (const word of weights.keys()) {
    const holding = indexed.filter((s) => s.heading.has(word) || s.text.has(word)).length;
    rarity.set(word, holding === 0 ? 0 : Math.log(1 + sections.length / holding));
  }
  const scored = sections.map((section, index) => {
    let score = 0;
    for (const [word, weight] of weights) {
      const inHeading = indexed[index]!.heading.has(word) ? 3 : 0;
      const inText = indexed[index]!.text.has(word) ? 1 : 0;
      score += weight * rarity.get(word)! * (inHeading + inText);
    }
    return { index, section, score };
  });
  return scored
    .filter((passage) => passage.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, max)
    .sort((a, b) => a.index - b.index);
}

/** Where a passage came from, as the lesson's page lists it. */
export const sourceOf = (passage: Passage): LessonSource => ({
  section: passage.index,
  heading: passage.section.heading,
  pageStart: passage.section.pageStart ?? null,
  pageEnd: passage.section.pageEnd ?? null,
});

const pagesOf = (section: MaterialSection) =>
  section.pageStart === undefined
    ? ''
    : section.pageStart === section.pageEnd
      ? ` (page ${section.pageStart})`
      : ` (pages ${section.pageStart}–${section.pageEnd})`;

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The passages as the lesson prompt carries them: each headed by its heading and pages. */
export function passagesText(passages: Passage[], budget = PASSAGE_BUDGET_CHARS): string {
  const each = Math.floor(budget / Math.max(passages.length, 1));
  return passages
    .map(
      (p) =>
        `[${p.index + 1}] ${oneLine(p.section.heading)}${pagesOf(p.section)}\n${oneLine(p.section.text).slice(0, each)}`,
    )
    .join('\n\n');
}

/**
 * The material as the outline's prompt carries it: every section's heading (one a line, so the
 * outline can follow the document's own structure) and as much of each section's opening as the
 * budget allows.
 */
export function materialDigest(
  sections: MaterialSection[],
  budget = OUTLINE_DIGEST_CHARS,
): { headings: string[]; openings: string } {
  const headings = sections.map((s, i) => `${i + 1}. ${oneLine(s.heading)}${pagesOf(s)}`);
  const headingChars = headings.join('\n').length;
  const each = Math.max(0, Math.floor((budget - headingChars) / Math.max(sections.length, 1)));
  const openings =
    each < 80
      ? ''
      : sections
          .map((s, i) => `[${i + 1}] ${oneLine(s.text).slice(0, each)}`)
          .join('\n')
          .slice(0, budget);
  return { headings, openings };
}

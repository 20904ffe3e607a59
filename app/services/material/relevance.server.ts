import type { LessonSource, MaterialSection } from '../../../db/schema';
import { allWords, headingShare } from '~/domain/material-coverage';

/**
 * Which sections of the member's material a lesson is written from (ADR 0032, ranked as ADR 0058
 * says). The rule, kept simple enough to explain on one line of docs/features.md:
 *
 * - the query's words are the lesson title's (weight 1) and its topic title's (weight ½), in
 *   lower case, three letters or more, less function words ("the", "with") and the words titles
 *   are made of ("understanding", "introduction", "overview") unless a section's heading holds
 *   them: a section called "Introduction" is found by a lesson on it;
 * - each section scores BM25 (k1 = 1.2, b = 0.75) over its heading and text, its heading's words
 *   counted HEADING_WEIGHT times;
 * - the lesson's own section (the one whose heading's words the lesson's title holds the largest
 *   share of, all of them or at least half) is favoured: it gains the best score any section
 *   has, so it comes first;
 * - the best MAX_PASSAGES sections that score above zero are the lesson's sources, BEST FIRST:
 *   the lesson quotes the first and its Sources link opens it. None scores: no sources, and the
 *   lesson is written from the model's own knowledge, as without material.
 */
const MAX_PASSAGES = 3;
const PASSAGE_BUDGET_CHARS = 6_000;
/** What the outline's prompt may carry of the material: the headings and each section's opening. */
const OUTLINE_DIGEST_CHARS = 12_000;
const HEADING_WEIGHT = 3;
const K1 = 1.2;
const B = 0.75;

/** Words titles are made of: ignored in a query unless a section's heading holds them. */
const TITLE_WORDS = new Set(
  (
    'introduction overview basics understanding key points part lesson topic example examples ' +
    'practice more new using use uses'
  ).split(' '),
);

/** A title's subject words (title words dropped, unless `keep` holds them). */
export function wordsOf(text: string, keep: ReadonlySet<string> = new Set()): Set<string> {
  return new Set(allWords(text).filter((word) => !TITLE_WORDS.has(word) || keep.has(word)));
}

export interface Passage {
  /** Index of the section in the document. */
  index: number;
  section: MaterialSection;
  score: number;
}

/** The sections a lesson on `lesson` (in topic `topic`) draws on, best first. */
export function relevantSections(
  sections: MaterialSection[],
  query: { lesson: string; topic?: string },
  max = MAX_PASSAGES,
): Passage[] {
  if (sections.length === 0) return [];
  // No heading word is a stop word for the sections it heads.
  const headingVocabulary = new Set(sections.flatMap((s) => allWords(s.heading)));
  const weights = new Map<string, number>();
  for (const word of wordsOf(query.topic ?? '', headingVocabulary)) weights.set(word, 0.5);
  for (const word of wordsOf(query.lesson, headingVocabulary)) weights.set(word, 1);
  if (weights.size === 0) return [];
  const counted = sections.map((section) => {
    const counts = new Map<string, number>();
    const add = (words: string[], times: number) => {
      for (const word of words) counts.set(word, (counts.get(word) ?? 0) + times);
    };
    const heading = allWords(section.heading);
    const text = allWords(section.text);
    add(heading, HEADING_WEIGHT);
    add(text, 1);
    return { counts, length: heading.length * HEADING_WEIGHT + text.length };
  });
  const average = counted.reduce((sum, s) => sum + s.length, 0) / counted.length || 1;
  const idf = new Map<string, number>();
  for (const word of weights.keys()) {
    const holding = counted.filter((s) => s.counts.has(word)).length;
    idf.set(word, Math.log(1 + (sections.length - holding + 0.5) / (holding + 0.5)));
  }
  const scored = sections.map((section, index) => {
    const { counts, length } = counted[index]!;
    let score = 0;
    for (const [word, weight] of weights) {
      const tf = counts.get(word) ?? 0;
      if (tf === 0) continue;
      score +=
        (weight * idf.get(word)! * tf * (K1 + 1)) / (tf + K1 * (1 - B + (B * length) / average));
    }
    return { index, section, score };
  });
  // The lesson's own section: the largest share of its heading named by the lesson's title
  // (the topic's title when the lesson's names none), at least half; its first part on a tie.
  const best = Math.max(...scored.map((p) => p.score));
  const ownBy = (title: string) => {
    let own: Passage | undefined;
    let ownShare = 0;
    for (const passage of scored) {
      const share = headingShare(passage.section.heading, title);
      if (share >= 0.5 && passage.score > 0 && share > ownShare) [own, ownShare] = [passage, share];
    }
    return own;
  };
  const own = ownBy(query.lesson) ?? ownBy(query.topic ?? '');
  if (own) own.score += best;
  return scored
    .filter((passage) => passage.score > 0)
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, max);
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

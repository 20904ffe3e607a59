import type { Block } from './sections.server';

/**
 * What a document carries around its content and a course must never teach (ADR 0058): a cover
 * or title page, a table of contents, running headers and footers, and page numbers. Recognised
 * by their shape, never by their words alone:
 *
 * - a page number is a line that is only a number ("7", "- 7 -", "Page 7", "7 of 36", "vii");
 * - a running header or footer is one of a page's first or last two lines that recurs (digits
 *   aside) on at least three pages and a third of them;
 * - a table of contents is a part headed "Contents" / "Table of contents", or a paragraph of at
 *   least three lines most of which are entries (a title then a page number, often after dot
 *   leaders; or a Markdown link to an anchor of the document);
 * - a cover or title page is one of a PDF's first COVER_PAGES pages, or the text before the
 *   first heading of other documents, of under COVER_CHARS characters and no prose (no line of
 *   six words or more, at most one sentence end): a title, an organisation, an author, an
 *   address. A short first section is kept: it is prose.
 */
const COVER_PAGES = 2;
const COVER_CHARS = 400;
const PAGE_NUMBER =
  /^(?:[-–—]\s*)?(?:page\s+)?(?:\d{1,4}|[ivxlcdm]{1,7})(?:\s*(?:\/|of)\s*\d{1,4})?(?:\s*[-–—])?$/i;
/** "1.3 Language used ........ 5", "Introduction\t1", "2. Unified system 7". */
const TOC_ENTRY =
  /^(?=.*\p{L}).{2,}?(?:\s*(?:\.\s?){2,}\s*|\s*\t\s*|\s+)(?:\d{1,4}|[ivxlc]{1,5})$/iu;
/** A Markdown contents list: "[Install](#install)". */
const ANCHOR_ENTRY = /^\[[^\]]+\]\(#[^)]*\)$/;
const CONTENTS_HEADING = /^(?:table of )?contents$/i;
const LONG_LINE = /(?:\S+[ \t]+){5,}\S+/;
const SENTENCE_END = /\p{L}[.!?](?=\s|$)/gu;

export const isPageNumber = (line: string) => PAGE_NUMBER.test(line.trim());

/** An entry is a line of a title and a number: a longer line is prose (and not worth a regex). */
const MAX_ENTRY_CHARS = 200;

const isTocEntry = (line: string) => {
  const text = line.trim().replace(/^[-*+]\s+/, '');
  if (text.length > MAX_ENTRY_CHARS) return false;
  return TOC_ENTRY.test(text) || ANCHOR_ENTRY.test(text);
};

/** A paragraph that is a table of contents: three lines or more, most of them entries. */
export function isContentsBlock(text: string): boolean {
  const lines = text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  if (lines.length < 3) return false;
  return lines.filter(isTocEntry).length / lines.length >= 0.6;
}

interface PageLine {
  text: string;
  page: number;
}

/** A PDF's lines less page numbers and running headers and footers. */
export function withoutPageFurniture<L extends PageLine>(lines: L[]): L[] {
  const byPage = new Map<number, L[]>();
  for (const line of lines) {
    const page = byPage.get(line.page);
    if (page) page.push(line);
    else byPage.set(line.page, [line]);
  }
  const shape = (text: string) => text.trim().replace(/\d+/g, '#').toLowerCase();
  const edgePages = new Map<string, Set<number>>();
  for (const [page, pageLines] of byPage) {
    const edges = new Set([...pageLines.slice(0, 2), ...pageLines.slice(-2)]);
    for (const line of edges) {
      const key = shape(line.text);
      edgePages.set(key, (edgePages.get(key) ?? new Set()).add(page));
    }
  }
  const least = Math.max(3, byPage.size / 3);
  const running = new Set(
    [...edgePages].filter(([, pages]) => pages.size >= least).map(([key]) => key),
  );
  return [...byPage.values()].flatMap((pageLines) => {
    const edges = new Set([...pageLines.slice(0, 2), ...pageLines.slice(-2)]);
    return pageLines.filter(
      (line) => !isPageNumber(line.text) && !(edges.has(line) && running.has(shape(line.text))),
    );
  });
}

const isProse = (blocks: Block[]) =>
  blocks.some((block) => !block.heading && LONG_LINE.test(block.text)) ||
  blocks.reduce((sum, block) => sum + (block.text.match(SENTENCE_END)?.length ?? 0), 0) > 1;
const charsOf = (blocks: Block[]) => blocks.reduce((sum, block) => sum + block.text.length, 0);
const looksLikeCover = (blocks: Block[]) => charsOf(blocks) < COVER_CHARS && !isProse(blocks);

/** The blocks of a document less its cover, title page and table of contents. */
export function withoutFrontMatter(blocks: Block[]): Block[] {
  // Tables of contents: the part under a "Contents" heading, and any paragraph of entries.
  const kept: Block[] = [];
  let inContents = false;
  for (const block of blocks) {
    if (block.heading) inContents = CONTENTS_HEADING.test(block.text.trim());
    if (inContents || (!block.heading && isContentsBlock(block.text))) continue;
    kept.push(block);
  }
  if (!kept.some((block) => block.heading)) return kept;
  // The cover and title pages: leading pages of a PDF, or the text before the first heading.
  const paged = kept.every((block) => block.page !== undefined);
  if (paged) {
    const pages = [...new Set(kept.map((block) => block.page!))].sort((a, b) => a - b);
    let start = 0;
    while (
      start < Math.min(COVER_PAGES, pages.length - 1) &&
      looksLikeCover(kept.filter((block) => block.page === pages[start]))
    )
      start += 1;
    return kept.filter((block) => block.page! >= pages[start]!);
  }
  const first = kept.findIndex((block) => block.heading);
  const before = kept.slice(0, first);
  return first > 0 && looksLikeCover(before) ? kept.slice(first) : kept;
}

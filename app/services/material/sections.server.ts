import type { MaterialSection } from '../../../db/schema';

/**
 * A document read into blocks (headings and paragraphs, with their page for a PDF), then into the
 * sections a course is written from (ADR 0032): each heading opens a section that runs to the
 * next one. Text before the first heading, and a document with no headings at all, is cut into
 * parts of about PART_CHARS characters; a section longer than MAX_SECTION_CHARS is cut into
 * parts of its own ("Heading (part 2)"), so a lesson's passages stay about one thing.
 */
export interface Block {
  text: string;
  heading: boolean;
  /** 1-based page (PDF only). */
  page?: number;
}

const MAX_SECTION_CHARS = 6_000;
/**
 * Control characters (form feeds copied from a PDF, NULs) and bidirectional overrides: blanks in
 * stored material, as they are junk in anything a member types (app/utils/text.ts).
 */
const JUNK =
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF\u202A-\u202E\u2066-\u2069]/g;
const PART_CHARS = 3_000;

interface Draft {
  heading: string | null;
  lines: string[];
  chars: number;
  pageStart?: number;
  pageEnd?: number;
}

const pagesName = (start?: number, end?: number) =>
  start === undefined ? null : start === end ? `Page ${start}` : `Pages ${start}–${end}`;

function finish(draft: Draft, untitledIndex: () => number): MaterialSection {
  const heading =
    draft.heading ?? pagesName(draft.pageStart, draft.pageEnd) ?? `Part ${untitledIndex()}`;
  return {
    heading,
    text: draft.lines.join('\n'),
    ...(draft.pageStart !== undefined
      ? { pageStart: draft.pageStart, pageEnd: draft.pageEnd }
      : {}),
  };
}

/** A paragraph longer than a part, cut at spaces. */
function pieces(text: string, size: number): string[] {
  if (text.length <= size) return [text];
  const out: string[] = [];
  let rest = text;
  while (rest.length > size) {
    const cut = rest.lastIndexOf(' ', size);
    const at = cut > size / 2 ? cut : size;
    out.push(rest.slice(0, at).trim());
    rest = rest.slice(at).trim();
  }
  if (rest) out.push(rest);
  return out;
}

export function buildSections(blocks: Block[]): MaterialSection[] {
  const sections: MaterialSection[] = [];
  let untitled = 0;
  const nextUntitled = () => (untitled += 1);
  let current: Draft | null = null;
  // Parts of one heading's section: "Heading (part 2)".
  let part = 1;
  let baseHeading: string | null = null;

  const close = () => {
    if (current && current.chars > 0) sections.push(finish(current, nextUntitled));
    current = null;
  };
  const open = (heading: string | null, page?: number): Draft => ({
    heading,
    lines: [],
    chars: 0,
    pageStart: page,
    pageEnd: page,
  });

  for (const block of blocks) {
    const text = block.text
      .replace(JUNK, ' ')
      .replace(/[ \t\u00a0]+/g, ' ')
      .trim();
    if (!text) continue;
    if (block.heading) {
      close();
      baseHeading = text.slice(0, 200);
      part = 1;
      current = open(baseHeading, block.page);
      continue;
    }
    const limit = baseHeading === null ? PART_CHARS : MAX_SECTION_CHARS;
    for (const piece of pieces(text, limit)) {
      let draft: Draft = current ?? open(baseHeading, block.page);
      if (draft.chars > 0 && draft.chars + piece.length > limit) {
        close();
        part += 1;
        draft = open(baseHeading === null ? null : `${baseHeading} (part ${part})`, block.page);
      }
      draft.lines.push(piece);
      draft.chars += piece.length + 1;
      if (block.page !== undefined) {
        draft.pageStart ??= block.page;
        draft.pageEnd = block.page;
      }
      current = draft;
    }
  }
  close();
  return sections;
}

/** The characters of text the sections hold (what the limits count). */
export const sectionChars = (sections: MaterialSection[]) =>
  sections.reduce((sum, section) => sum + section.text.length, 0);

import { Parser } from 'htmlparser2';

/**
 * A lesson's stored HTML (already sanitized, ADR 0007) as the few blocks an export draws:
 * both the Markdown and the PDF writer read this list, so neither parses HTML itself and
 * anything the sanitizer lets through that is not listed here degrades to its text.
 */
export interface Run {
  text: string;
  bold?: boolean;
  italic?: boolean;
  code?: boolean;
  href?: string;
}

export type Block =
  | { kind: 'heading'; level: number; runs: Run[] }
  | { kind: 'paragraph'; runs: Run[] }
  | { kind: 'list'; ordered: boolean; items: Run[][] }
  | { kind: 'code'; text: string }
  | { kind: 'image'; src: string; alt: string };

const HEADINGS = new Set(['h1', 'h2', 'h3', 'h4', 'h5', 'h6']);
const PARAGRAPHS = new Set(['p', 'blockquote', 'div', 'td', 'th', 'dt', 'dd', 'figcaption']);

export function htmlToBlocks(html: string): Block[] {
  const blocks: Block[] = [];
  let runs: Run[] = [];
  let heading = 0;
  const lists: { ordered: boolean; items: Run[][] }[] = [];
  let pre: string[] | null = null;
  const marks = { bold: 0, italic: 0, code: 0 };
  const links: (string | undefined)[] = [];

  /** Ends the runs gathered so far as a paragraph, heading or list item. */
  function flush() {
    const trimmed = trimRuns(runs);
    runs = [];
    if (trimmed.length === 0) return;
    const list = lists.at(-1);
    if (list) list.items.push(trimmed);
    else if (heading) blocks.push({ kind: 'heading', level: heading, runs: trimmed });
    else blocks.push({ kind: 'paragraph', runs: trimmed });
  }

  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (pre) return;
        if (HEADINGS.has(name)) {
          flush();
          heading = Number(name[1]);
        } else if (PARAGRAPHS.has(name) || name === 'li' || name === 'br') {
          if (name === 'br' && !lists.length) runs.push({ text: '\n' });
          else flush();
        } else if (name === 'ul' || name === 'ol') {
          flush();
          lists.push({ ordered: name === 'ol', items: [] });
        } else if (name === 'pre') {
          flush();
          pre = [];
        } else if (name === 'img') {
          flush();
          if (attrs.src) blocks.push({ kind: 'image', src: attrs.src, alt: attrs.alt ?? '' });
        } else if (name === 'strong' || name === 'b') marks.bold += 1;
        else if (name === 'em' || name === 'i') marks.italic += 1;
        else if (name === 'code') marks.code += 1;
        else if (name === 'a') links.push(attrs.href);
      },
      ontext(text) {
        if (pre) {
          pre.push(text);
          return;
        }
        const clean = marks.code ? text : text.replace(/\s+/g, ' ');
        if (!clean) return;
        const href = links.findLast((link) => link !== undefined);
        const run: Run = {
          text: clean,
          ...(marks.bold ? { bold: true } : {}),
          ...(marks.italic ? { italic: true } : {}),
          ...(marks.code ? { code: true } : {}),
          ...(href ? { href } : {}),
        };
        // The parser splits text at entities: runs with the same marks are one run.
        const last = runs.at(-1);
        if (last && sameMarks(last, run)) last.text += run.text;
        else runs.push(run);
      },
      onclosetag(name) {
        if (pre) {
          if (name === 'pre') {
            blocks.push({ kind: 'code', text: pre.join('').replace(/\n$/, '') });
            pre = null;
          }
          return;
        }
        if (HEADINGS.has(name)) {
          flush();
          heading = 0;
        } else if (PARAGRAPHS.has(name) || name === 'li') flush();
        else if (name === 'ul' || name === 'ol') {
          flush();
          const list = lists.pop();
          if (list && list.items.length > 0) blocks.push({ kind: 'list', ...list });
        } else if (name === 'strong' || name === 'b') marks.bold = Math.max(0, marks.bold - 1);
        else if (name === 'em' || name === 'i') marks.italic = Math.max(0, marks.italic - 1);
        else if (name === 'code') marks.code = Math.max(0, marks.code - 1);
        else if (name === 'a') links.pop();
      },
    },
    { decodeEntities: true, lowerCaseTags: true },
  );
  parser.write(html);
  parser.end();
  flush();
  while (lists.length) {
    const list = lists.shift()!;
    if (list.items.length) blocks.push({ kind: 'list', ...list });
  }
  return blocks;
}

function sameMarks(a: Run, b: Run): boolean {
  return a.bold === b.bold && a.italic === b.italic && a.code === b.code && a.href === b.href;
}

/** Drops leading and trailing blanks so a block never starts or ends with a space. */
function trimRuns(runs: Run[]): Run[] {
  const out = runs.map((run) => ({ ...run }));
  while (out.length && !out[0]!.text.trim()) out.shift();
  while (out.length && !out.at(-1)!.text.trim()) out.pop();
  if (out.length) {
    out[0]!.text = out[0]!.text.replace(/^\s+/, '');
    out[out.length - 1]!.text = out.at(-1)!.text.replace(/\s+$/, '');
  }
  return out;
}

/** The plain text of some runs (titles, alt text, captions). */
export function runsText(runs: Run[]): string {
  return runs.map((run) => run.text).join('');
}

import { Marked } from 'marked';
import { sanitizeHtml } from './sanitize-html.server';

const marked = new Marked({ gfm: true, breaks: false, async: false });
/** Text people type (notes) keeps its line breaks, as it looked when they wrote it. */
const typed = new Marked({ gfm: true, breaks: true, async: false });

/**
 * Strips a ``` fence wrapped around a whole answer, as models sometimes add
 * one. `languages` limits which fence labels count as a wrapper (an unlabelled
 * fence always does): a lesson unwraps only ```markdown, so an answer that is
 * one code block stays code. A fence holding another fence is not a wrapper
 * (an answer that starts and ends with code blocks) and stays as it is.
 */
export function stripCodeFences(text: string, languages?: readonly string[]): string {
  const trimmed = text.trim();
  const fenced = /^```([\w-]*)[ \t]*\r?\n([\s\S]*?)\r?\n?```$/.exec(trimmed);
  if (!fenced || fenced[2]!.includes('```')) return trimmed;
  const label = fenced[1]!.toLowerCase();
  if (label && languages && !languages.includes(label)) return trimmed;
  return fenced[2]!.trim();
}

/** Model Markdown to HTML that is safe to render; `lineBreaks` keeps single line breaks. */
export function markdownToSafeHtml(markdown: string, { lineBreaks = false } = {}): string {
  return sanitizeHtml((lineBreaks ? typed : marked).parse(markdown) as string);
}

import { Marked } from 'marked';
import { sanitizeHtml } from './sanitize-html.server';

const marked = new Marked({ gfm: true, breaks: false, async: false });

/** Strips a ``` fence wrapped around a whole answer, as models sometimes add one. */
export function stripCodeFences(text: string): string {
  const trimmed = text.trim();
  const fenced = /^```[\w-]*[ \t]*\r?\n([\s\S]*?)\r?\n?```$/.exec(trimmed);
  return (fenced?.[1] ?? trimmed).trim();
}

/** Model Markdown to HTML that is safe to render. */
export function markdownToSafeHtml(markdown: string): string {
  return sanitizeHtml(marked.parse(markdown) as string);
}

import type { LessonSource, MaterialKind } from '../../db/schema';
import { missingFieldMessage } from '~/utils/messages';
import { PAID_ONLY_MESSAGE, type PlanDefinition } from './plans';

/**
 * A course from the member's own material (ADR 0032): what may be attached or pasted on
 * /create, what is refused and with which words, and how a lesson names the sections it drew
 * on. Browser-safe: /create and /pricing show the same limits the server enforces.
 */

/** A document's largest size, and a PDF's most pages. */
export const MAX_DOCUMENT_BYTES = 10 * 1024 * 1024;
export const MAX_DOCUMENT_PAGES = 200;
/**
 * The most a /create form may weigh as posted: a document of MAX_DOCUMENT_BYTES and the form
 * around it (pasted text, which comes without a document, is at most 100,000 characters).
 * A form between the two is read, and its document refused with the page's own message.
 */
export const MAX_CREATE_FORM_BYTES = MAX_DOCUMENT_BYTES + 1024 * 1024;
/** The most text kept from a document, whatever its size (about 400 dense pages). */
export const MAX_MATERIAL_CHARS = 1_000_000;
/** Less text than this gives nothing to write a course from (a scan, an empty file). */
export const MIN_MATERIAL_CHARS = 200;
/** A DOCX is a zip: what its parts may add up to once unpacked, and how many there may be. */
export const MAX_DOCX_UNPACKED_BYTES = 50 * 1024 * 1024;
export const MAX_DOCX_PARTS = 2_000;

/** File endings /create accepts, and the kind each one must really be. */
export const DOCUMENT_EXTENSIONS: Record<string, Exclude<MaterialKind, 'pasted'>> = {
  pdf: 'pdf',
  docx: 'docx',
  md: 'markdown',
  markdown: 'markdown',
  txt: 'text',
};
export const ACCEPT_ATTRIBUTE = '.pdf,.docx,.md,.markdown,.txt';

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
const count = (n: number) => n.toLocaleString('en-US');

export const MATERIAL_MESSAGES = {
  unsupported: 'Please attach a PDF, DOCX, Markdown (.md) or plain text (.txt) file',
  mismatch: (extension: string) =>
    `This file's contents are not a ${extension.toUpperCase()} file, whatever its name says. Please attach the document itself.`,
  tooLarge: `The document is too large: at most ${mb(MAX_DOCUMENT_BYTES)}`,
  tooManyPages: (pages: number) =>
    `The PDF has ${count(pages)} pages: at most ${count(MAX_DOCUMENT_PAGES)}`,
  noText:
    'This PDF has no text to read: it may be a scanned image. Please attach a PDF with selectable text, or paste the text.',
  tooLittleText: `The material has too little text to build a course from (at least ${count(MIN_MATERIAL_CHARS)} characters)`,
  tooMuchText: `The document holds more than ${count(MAX_MATERIAL_CHARS)} characters of text: please attach a shorter one`,
  encrypted:
    'This document is protected with a password. Please remove the password and attach it again.',
  zipBomb: `This DOCX unpacks to far more than it holds (over ${mb(MAX_DOCX_UNPACKED_BYTES)}), as a zip bomb does: it is refused.`,
  unreadable: (kind: string) => `This ${kind} could not be read: it may be damaged`,
  notUtf8: 'Text and Markdown files must be UTF-8 text',
  timedOut: 'The document took too long to read: please attach a smaller or simpler one',
  pastedTooLong: (max: number) => `Pasted text can be at most ${count(max)} characters`,
  bothGiven: 'Please attach a document or paste text, not both',
  busy: 'Documents are being read for many members right now: please try again in a minute',
} as const;

/**
 * /create with neither a sub-topic nor material: a sub-topic is needed only without material,
 * whose sections make the outline.
 */
export const missingSubtopicMessage = (documents: boolean) =>
  missingFieldMessage(
    `Sub Topic, or ${documents ? 'attach a document or paste text' : 'paste text'}`,
  );

export type MaterialRequest =
  { kind: 'document'; bytes: number } | { kind: 'pasted'; chars: number };

/**
 * The plan's rule for material: documents on paid plans only ('For paid members only' on the
 * free plan), pasted text up to the plan's characters. Null when allowed, else the message and
 * its HTTP status.
 */
export function materialRefusal(
  plan: PlanDefinition,
  request: MaterialRequest,
): { message: string; status: 403 | 413 } | null {
  const { material } = plan.limits;
  if (request.kind === 'document') {
    if (!material.documents) return { message: PAID_ONLY_MESSAGE, status: 403 };
    if (request.bytes > MAX_DOCUMENT_BYTES)
      return { message: MATERIAL_MESSAGES.tooLarge, status: 413 };
    return null;
  }
  if (request.chars > material.pastedChars)
    return { message: MATERIAL_MESSAGES.pastedTooLong(material.pastedChars), status: 413 };
  return null;
}

/** One plan's material line, as /create and /pricing print it. */
export function materialAllowance(plan: PlanDefinition): string {
  const { material } = plan.limits;
  const pasted = `paste up to ${count(material.pastedChars)} characters of text`;
  return material.documents
    ? `Attach a PDF, DOCX, Markdown or text file (up to ${mb(MAX_DOCUMENT_BYTES)} and ${count(MAX_DOCUMENT_PAGES)} pages), or ${pasted}`
    : `${pasted[0]!.toUpperCase()}${pasted.slice(1)}; documents need a paid plan`;
}

/** "page 3", "pages 3–5": inclusive, with an en dash. */
function pageRange(start: number, end: number): string {
  return start === end ? `page ${start}` : `pages ${start}–${end}`;
}

/**
 * What a lesson's page says it drew on: the pages of a PDF, merged where they touch
 * ("Sources: pages 12–14"); the sections' headings for other material.
 */
export function describeSources(sources: LessonSource[]): string {
  const paged = sources.filter((s) => s.pageStart !== null && s.pageEnd !== null);
  if (paged.length === sources.length && paged.length > 0) {
    const ranges = [...paged]
      .map((s) => [s.pageStart!, s.pageEnd!] as [number, number])
      .sort((a, b) => a[0] - b[0]);
    const merged: [number, number][] = [];
    for (const [start, end] of ranges) {
      const last = merged[merged.length - 1];
      if (last && start <= last[1] + 1) last[1] = Math.max(last[1], end);
      else merged.push([start, end]);
    }
    const text = merged.map(([start, end]) => pageRange(start, end));
    const words = text.map((part, i) => (i === 0 ? part : part.replace(/^pages? /, '')));
    // "pages 2–3, 7", "page 4": one word for the whole list, as people write it.
    const plural = merged.length > 1 || merged[0]![0] !== merged[0]![1];
    return `Sources: ${plural ? words.join(', ').replace(/^page /, 'pages ') : words[0]}`;
  }
  return `Sources: ${sources.map((s) => `“${s.heading}”`).join(', ')}`;
}

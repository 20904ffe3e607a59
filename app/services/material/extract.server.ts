import { unzipSync, zipSync } from 'fflate';
import { Parser } from 'htmlparser2';
import { Lexer, type Token } from 'marked';
import { getDocumentProxy } from 'unpdf';
import type { MaterialKind, MaterialSection } from '../../../db/schema';
import {
  DOCUMENT_EXTENSIONS,
  MATERIAL_MESSAGES,
  MAX_DOCUMENT_BYTES,
  MAX_DOCUMENT_PAGES,
  MAX_DOCX_PARTS,
  MAX_DOCX_UNPACKED_BYTES,
  MAX_MATERIAL_CHARS,
  MIN_MATERIAL_CHARS,
} from '~/domain/material';
import { fail, ok, type Result } from '~/domain/result';
import { withoutFrontMatter, withoutPageFurniture } from './front-matter.server';
import { buildSections, sectionChars, type Block } from './sections.server';

/**
 * Reads a member's document into sections (ADR 0032). Pure CPU and memory on bytes already in
 * hand: it runs on a worker thread of its own (extract-pool.server.ts), never on the request
 * thread. Every way a file can be refused answers the member's message and a 4xx status:
 *
 * - the ending must be .pdf, .docx, .md/.markdown or .txt, and the bytes must be that kind
 *   (a PDF starts `%PDF-`, a DOCX is a zip holding `word/document.xml`, text is UTF-8 without
 *   NUL bytes);
 * - a password-protected PDF or DOCX (an encrypted DOCX is an OLE container holding an
 *   `EncryptedPackage` stream, not a zip) is refused as encrypted;
 * - a DOCX whose parts declare more than MAX_DOCX_UNPACKED_BYTES unpacked, or more than
 *   MAX_DOCX_PARTS parts, is refused as a zip bomb before anything is inflated; each part is then
 *   inflated into a buffer of its declared size (fflate never writes past it), so a part that
 *   lies about its size cannot take more memory either;
 * - a PDF of more than MAX_DOCUMENT_PAGES pages, or one whose pages hold less than
 *   MIN_MATERIAL_CHARS characters of text (a scan), is refused; so is any material of less text
 *   than that, or more than MAX_MATERIAL_CHARS.
 */
export interface ExtractedMaterial {
  kind: Exclude<MaterialKind, 'pasted'> | 'pasted';
  pageCount: number | null;
  charCount: number;
  sections: MaterialSection[];
}

const refuse = (message: string, status = 422) => fail(message, status);

const PDF_SIGNATURE = '%PDF-';
const ZIP_SIGNATURE = [0x50, 0x4b, 0x03, 0x04];
const OLE_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];

const startsWith = (bytes: Uint8Array, signature: number[]) =>
  signature.every((byte, i) => bytes[i] === byte);
/** PDF readers accept the header anywhere in the first kilobyte. */
const isPdf = (bytes: Uint8Array) =>
  Buffer.from(bytes.subarray(0, 1024)).toString('latin1').includes(PDF_SIGNATURE);
const isZip = (bytes: Uint8Array) => startsWith(bytes, ZIP_SIGNATURE);
const isOle = (bytes: Uint8Array) => startsWith(bytes, OLE_SIGNATURE);
/** Office's encrypted documents keep the real file in a stream of this name (UTF-16 in the directory). */
const isEncryptedOffice = (bytes: Uint8Array) =>
  Buffer.from(bytes).includes(Buffer.from('EncryptedPackage', 'utf16le'));

export function extensionOf(name: string): string {
  const match = /\.([A-Za-z0-9]+)$/.exec(name.trim());
  return match ? match[1]!.toLowerCase() : '';
}

/** Reads the document `name` (its ending says what it should be) from `bytes`. */
export async function extractDocument(
  name: string,
  bytes: Uint8Array,
): Promise<Result<ExtractedMaterial>> {
  const extension = extensionOf(name);
  const kind = DOCUMENT_EXTENSIONS[extension];
  if (!kind) return refuse(MATERIAL_MESSAGES.unsupported, 415);
  if (bytes.length > MAX_DOCUMENT_BYTES) return refuse(MATERIAL_MESSAGES.tooLarge, 413);
  switch (kind) {
    case 'pdf':
      if (!isPdf(bytes)) return refuse(MATERIAL_MESSAGES.mismatch(extension), 415);
      return extractPdf(bytes);
    case 'docx':
      if (isOle(bytes) && isEncryptedOffice(bytes)) return refuse(MATERIAL_MESSAGES.encrypted);
      if (!isZip(bytes)) return refuse(MATERIAL_MESSAGES.mismatch(extension), 415);
      return extractDocx(bytes, extension);
    case 'markdown':
    case 'text': {
      if (isPdf(bytes) || isZip(bytes) || isOle(bytes) || bytes.includes(0))
        return refuse(MATERIAL_MESSAGES.mismatch(extension), 415);
      let text: string;
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      } catch {
        return refuse(MATERIAL_MESSAGES.notUtf8, 415);
      }
      return extractText(text, kind);
    }
  }
}

/** Text that arrived as text: Markdown headings (and, in plain text, short title lines) open sections. */
export function extractText(
  text: string,
  kind: 'markdown' | 'text' | 'pasted',
): Result<ExtractedMaterial> {
  if (text.length > MAX_MATERIAL_CHARS) return refuse(MATERIAL_MESSAGES.tooMuchText, 413);
  const blocks = withoutFrontMatter(markdownBlocks(text.normalize('NFC'), kind !== 'markdown'));
  return finished(kind, null, buildSections(blocks), MATERIAL_MESSAGES.tooLittleText);
}

function finished(
  kind: ExtractedMaterial['kind'],
  pageCount: number | null,
  sections: MaterialSection[],
  tooLittle: string,
): Result<ExtractedMaterial> {
  const charCount = sectionChars(sections);
  if (charCount < MIN_MATERIAL_CHARS) return refuse(tooLittle);
  if (charCount > MAX_MATERIAL_CHARS) return refuse(MATERIAL_MESSAGES.tooMuchText, 413);
  return ok({ kind, pageCount, charCount, sections });
}

/** A line that reads as a title in plain text: short, no sentence punctuation at its end. */
const looksLikeTitle = (text: string) =>
  !text.includes('\n') && text.length <= 80 && /\p{L}/u.test(text) && !/[.,;:!?]$/.test(text);

function tokenText(token: Token): string {
  if (token.type === 'list')
    return (token as Token & { items: { text: string }[] }).items.map((i) => i.text).join('\n');
  if (token.type === 'code') return (token as Token & { text: string }).text;
  return 'text' in token && typeof token.text === 'string' ? token.text : token.raw;
}

function markdownBlocks(text: string, plainTitles: boolean): Block[] {
  const tokens = new Lexer().lex(text).filter((token) => token.type !== 'space');
  return tokens.map((token, i) => {
    if (token.type === 'heading') return { text: tokenText(token), heading: true };
    const body = tokenText(token).trim();
    const next = tokens[i + 1];
    const heading =
      plainTitles &&
      token.type === 'paragraph' &&
      looksLikeTitle(body) &&
      next?.type === 'paragraph' &&
      tokenText(next).length > body.length;
    return { text: body, heading };
  });
}

interface PdfTextItem {
  str: string;
  transform: number[];
  hasEOL?: boolean;
}

/** Font size of a text item: the length of its transform's vertical axis. */
const sizeOf = (item: PdfTextItem) =>
  Math.round(Math.hypot(item.transform[2] ?? 0, item.transform[3] ?? 0) * 10) / 10;

interface PdfLine {
  text: string;
  size: number;
  page: number;
}

/**
 * A PDF's lines with their font size. A line is a heading when its size is at least 15 % above
 * the body size (the size most of the document's characters have), it is short and has a letter.
 */
async function extractPdf(bytes: Uint8Array): Promise<Result<ExtractedMaterial>> {
  let pdf: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // A copy: pdf.js takes over (detaches) the buffer it is given.
    pdf = await getDocumentProxy(new Uint8Array(bytes), {
      verbosity: 0,
      isEvalSupported: false,
      disableFontFace: true,
      useSystemFonts: false,
      stopAtErrors: false,
    });
  } catch (error) {
    const name = (error as { name?: string })?.name;
    if (name === 'PasswordException') return refuse(MATERIAL_MESSAGES.encrypted);
    return refuse(MATERIAL_MESSAGES.unreadable('PDF'));
  }
  try {
    if (pdf.numPages > MAX_DOCUMENT_PAGES)
      return refuse(MATERIAL_MESSAGES.tooManyPages(pdf.numPages), 413);
    const lines: PdfLine[] = [];
    let chars = 0;
    for (let page = 1; page <= pdf.numPages; page += 1) {
      const content = await (await pdf.getPage(page)).getTextContent();
      let text = '';
      let size = 0;
      const endLine = () => {
        if (text.trim()) lines.push({ text: text.trim(), size, page });
        chars += text.length;
        text = '';
        size = 0;
      };
      for (const raw of content.items) {
        if (!('str' in raw)) continue;
        const item = raw as PdfTextItem;
        if (item.str) {
          text += item.str;
          size = Math.max(size, sizeOf(item));
        }
        if (item.hasEOL) endLine();
      }
      endLine();
      if (chars > MAX_MATERIAL_CHARS * 1.2) return refuse(MATERIAL_MESSAGES.tooMuchText, 413);
    }
    // Page numbers and running headers and footers are neither headings nor text (ADR 0058).
    const kept = withoutPageFurniture(lines);
    const bySize = new Map<number, number>();
    for (const line of kept) bySize.set(line.size, (bySize.get(line.size) ?? 0) + line.text.length);
    const body = [...bySize.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
    const blocks: Block[] = [];
    for (const line of kept) {
      const heading =
        line.size >= body * 1.15 && line.text.length <= 120 && /\p{L}/u.test(line.text);
      const last = blocks[blocks.length - 1];
      // A heading set on two lines is one heading; body lines of a page run on as one paragraph.
      if (last && last.heading === heading && last.page === line.page)
        last.text += heading ? ` ${line.text}` : `\n${line.text}`;
      else blocks.push({ text: line.text, heading, page: line.page });
    }
    return finished(
      'pdf',
      pdf.numPages,
      buildSections(withoutFrontMatter(blocks)),
      MATERIAL_MESSAGES.noText,
    );
  } catch {
    return refuse(MATERIAL_MESSAGES.unreadable('PDF'));
  } finally {
    await pdf.destroy().catch(() => undefined);
  }
}

/** Where a DOCX's parts are listed, checked before a byte of them is inflated. */
function unpackDocx(bytes: Uint8Array, extension: string): Result<Record<string, Uint8Array>> {
  let declared = 0;
  let parts = 0;
  let bomb = false;
  let hasDocument = false;
  let files: Record<string, Uint8Array>;
  try {
    // The filter sees every part's declared sizes from the zip's central directory first.
    const names: string[] = [];
    unzipSync(bytes, {
      filter: (file) => {
        parts += 1;
        declared += file.originalSize;
        names.push(file.name);
        return false;
      },
    });
    hasDocument = names.includes('word/document.xml');
    bomb = declared > MAX_DOCX_UNPACKED_BYTES || parts > MAX_DOCX_PARTS;
    if (bomb) return refuse(MATERIAL_MESSAGES.zipBomb, 413);
    if (!hasDocument) return refuse(MATERIAL_MESSAGES.mismatch(extension), 415);
    // Pictures are not read: the course is written from the text.
    files = unzipSync(bytes, { filter: (file) => !file.name.startsWith('word/media/') });
  } catch {
    return refuse(MATERIAL_MESSAGES.unreadable('DOCX'));
  }
  return ok(files);
}

const BLOCK_TAGS = new Set(['p', 'li', 'tr', 'blockquote', 'pre', 'caption']);
const HEADING_TAG = /^h[1-6]$/;

/** Word's headings (mammoth maps Heading 1–6 styles to h1–h6) and paragraphs, in order. */
function htmlBlocks(html: string): Block[] {
  const blocks: Block[] = [];
  let text = '';
  let heading = false;
  const flush = () => {
    if (text.trim()) blocks.push({ text: text.trim(), heading });
    text = '';
    heading = false;
  };
  const parser = new Parser({
    onopentag(name) {
      if (HEADING_TAG.test(name) || BLOCK_TAGS.has(name)) flush();
      if (HEADING_TAG.test(name)) heading = true;
      if (name === 'td' || name === 'th') text += ' ';
      if (name === 'br') text += '\n';
    },
    ontext(data) {
      text += data;
    },
    onclosetag(name) {
      if (HEADING_TAG.test(name) || BLOCK_TAGS.has(name)) flush();
    },
  });
  parser.write(html);
  parser.end();
  flush();
  return blocks;
}

async function extractDocx(
  bytes: Uint8Array,
  extension: string,
): Promise<Result<ExtractedMaterial>> {
  const unpacked = unpackDocx(bytes, extension);
  if (!unpacked.ok) return unpacked;
  let html: string;
  try {
    // mammoth reads a stored (uncompressed) copy of what was unpacked within the limits above.
    const stored = zipSync(unpacked.value, { level: 0 });
    // Loaded with the first DOCX (the web process imports this module for its file checks).
    const { default: mammoth } = await import('mammoth');
    const result = await mammoth.convertToHtml(
      { buffer: Buffer.from(stored.buffer, stored.byteOffset, stored.byteLength) },
      { convertImage: mammoth.images.imgElement(async () => ({ src: '' })) },
    );
    html = result.value;
  } catch {
    return refuse(MATERIAL_MESSAGES.unreadable('DOCX'));
  }
  return finished(
    'docx',
    null,
    buildSections(withoutFrontMatter(htmlBlocks(html))),
    MATERIAL_MESSAGES.tooLittleText,
  );
}

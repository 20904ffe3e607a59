import zlib from 'node:zlib';
import { Document, HeadingLevel, Packer, Paragraph } from 'docx';
import { zipSync, strToU8 } from 'fflate';
import PDFDocument from 'pdfkit';

/**
 * Documents made in the tests (ADR 0032): PDFs drawn with PDFKit (headings set larger than the
 * text, as a word processor would), DOCX files written with `docx`, and the bad files the
 * upload must refuse.
 */
export interface FixtureSection {
  heading: string;
  /** Sentences of the section's text; each section starts on a page of its own. */
  text: string;
  /** Pages the section runs over (its text repeated on each). */
  pages?: number;
}

function drawPdf(
  options: PDFKit.PDFDocumentOptions,
  draw: (doc: PDFKit.PDFDocument) => void,
): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const doc = new PDFDocument(options);
    const chunks: Buffer[] = [];
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    draw(doc);
    doc.end();
  });
}

export function pdfWithSections(sections: FixtureSection[]): Promise<Buffer> {
  return drawPdf({ autoFirstPage: false }, (doc) => {
    for (const section of sections) {
      doc.addPage();
      doc.fontSize(22).text(section.heading);
      doc.moveDown();
      doc.fontSize(12).text(section.text);
      for (let page = 1; page < (section.pages ?? 1); page += 1) {
        doc.addPage();
        doc.fontSize(12).text(section.text);
      }
    }
  });
}

/**
 * A long PDF of dense pages, as a handbook's are: `pages` pages of about 4,000 characters each
 * in small type, a heading every ten pages.
 */
export function longPdf(pages: number, wordsPerPage = 600): Promise<Buffer> {
  const words =
    'rivers carve valleys over thousands of years carrying sediment from mountains to the sea while deltas grow'.split(
      ' ',
    );
  return drawPdf({ autoFirstPage: false, margin: 36 }, (doc) => {
    for (let page = 0; page < pages; page += 1) {
      doc.addPage();
      if (page % 10 === 0) doc.fontSize(18).text(`Chapter ${page / 10 + 1}: Rivers and Valleys`);
      // Different words on every page, so no two pages' text is the same.
      const text = Array.from(
        { length: wordsPerPage },
        (_, i) => words[(i * 7 + page * 3) % words.length],
      ).join(' ');
      doc.fontSize(8).text(`${text}.`);
    }
  });
}

/** A PDF that needs a password to open. */
export const encryptedPdf = () =>
  drawPdf({ userPassword: 'secret-password', ownerPassword: 'owner-password' }, (doc) =>
    doc.text('Confidential notes that only the password opens. '.repeat(20)),
  );

/** What a scanner makes: pages of pictures, no text. */
export const scannedPdf = () =>
  drawPdf({}, (doc) => {
    doc.rect(60, 60, 400, 600).fill('#444444');
    doc.addPage();
    doc.rect(60, 60, 400, 600).fill('#666666');
  });

export function docxWithSections(sections: FixtureSection[]): Promise<Buffer> {
  const document = new Document({
    sections: [
      {
        children: sections.flatMap((section) => [
          new Paragraph({ text: section.heading, heading: HeadingLevel.HEADING_1 }),
          new Paragraph(section.text),
        ]),
      },
    ],
  });
  return Packer.toBuffer(document);
}

/** A DOCX-shaped zip whose document part unpacks to 60 MB of nothing. */
export function zipBombDocx(): Buffer {
  return Buffer.from(
    zipSync(
      {
        '[Content_Types].xml': strToU8('<Types/>'),
        'word/document.xml': new Uint8Array(60 * 1024 * 1024),
      },
      { level: 9 },
    ),
  );
}

/**
 * An encrypted Word document as Office writes one: an OLE compound file (not a zip) holding an
 * `EncryptedPackage` stream. Only the parts the check reads are real.
 */
export function encryptedDocx(): Buffer {
  const header = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
  const body = Buffer.alloc(4096);
  Buffer.from('EncryptedPackage', 'utf16le').copy(body, 1024);
  Buffer.from('EncryptionInfo', 'utf16le').copy(body, 1200);
  return Buffer.concat([header, body]);
}

/** A repeatable stream of numbers in [0, 1) (mulberry32), so fixtures are the same every run. */
function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * A photograph as a PNG: a sky-to-ground gradient with a camera's grain, which, like a real
 * photo's detail, does not compress: about width × height × 3 bytes.
 */
function photoPng(width: number, height: number, seed: number): Buffer {
  const random = seededRandom(seed);
  const stride = 1 + width * 3;
  const pixels = Buffer.alloc(stride * height);
  for (let y = 0; y < height; y += 1) {
    const sky = y < height * 0.55;
    for (let x = 0; x < width; x += 1) {
      const at = y * stride + 1 + x * 3;
      const base = sky ? [110, 160, 220 - (y * 60) / height] : [70 + (x * 40) / width, 120, 60];
      for (let c = 0; c < 3; c += 1)
        pixels[at + c] = Math.max(0, Math.min(255, base[c]! + (random() - 0.5) * 90));
    }
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(zlib.crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8 bits, RGB, deflate, no filter method, not interlaced
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(pixels)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A chapter of a book-like fixture: its title, and the words its prose is made of. */
export interface FixtureChapter {
  title: string;
  /** Nouns of the chapter's subject, as a reader would meet them in its text. */
  words: string[];
}

const SENTENCES = [
  'The {a} of a river is shaped by {b} long before anyone sees {c}.',
  'Field workers record {a} and {b} at the same point every season, so that changes in {c} stand out.',
  'Where {a} meets {b}, the water slows and {c} settles on the bed.',
  'A careful observer notes {a} first, then looks for {b} and the {c} around it.',
  'Most guides treat {a} and {b} separately, but in practice {c} links them.',
  'In a dry summer {a} shrinks, {b} becomes easier to see, and {c} can be measured directly.',
  'The table at the end of this chapter lists typical values of {a} for each kind of {b}.',
  'Survey teams photograph {a} from the same bank each year to compare {b} with {c}.',
];

/**
 * Prose of about `chars` characters about a chapter's subject: whole sentences, each naming
 * three of the chapter's words, different from page to page.
 */
export function chapterProse(chapter: FixtureChapter, chars: number, seed: number): string {
  const random = seededRandom(seed);
  const pick = () => chapter.words[Math.floor(random() * chapter.words.length)]!;
  const sentences: string[] = [];
  let length = 0;
  while (length < chars) {
    const template = SENTENCES[Math.floor(random() * SENTENCES.length)]!;
    const sentence = template.replace('{a}', pick()).replace('{b}', pick()).replace('{c}', pick());
    sentences.push(sentence);
    length += sentence.length + 1;
  }
  return sentences.join(' ');
}

/**
 * A book as a PDF: each chapter opens on a new page with its title in large type, then
 * `pagesPerChapter` pages (in all, or chapter by chapter) of about 1,800 characters of body
 * text each, and `figures` photographs per chapter with a caption, each on a page of its own.
 */
export function bookPdf(
  chapters: FixtureChapter[],
  {
    pagesPerChapter,
    figures = 0,
    figureSize = [600, 400],
  }: { pagesPerChapter: number[] | number; figures?: number; figureSize?: [number, number] },
): Promise<Buffer> {
  return drawPdf({ autoFirstPage: false, margin: 54, info: { Title: 'Field Guide' } }, (doc) => {
    chapters.forEach((chapter, c) => {
      const pages = Array.isArray(pagesPerChapter) ? pagesPerChapter[c]! : pagesPerChapter;
      for (let page = 0; page < pages; page += 1) {
        doc.addPage();
        if (page === 0) doc.fontSize(24).text(chapter.title).moveDown();
        doc.fontSize(10).text(chapterProse(chapter, page === 0 ? 1_400 : 1_800, c * 1000 + page));
      }
      for (let f = 0; f < figures; f += 1) {
        doc.addPage();
        const [width, height] = figureSize;
        doc.image(photoPng(width, height, c * 100 + f + 1), { fit: [500, 340] });
        doc
          .moveDown()
          .fontSize(9)
          .text(
            `Figure ${c + 1}.${f + 1}: ${chapter.words[f % chapter.words.length]} in the field.`,
          );
      }
    });
  });
}

/** The pages of a PDF PDFKit drew (it writes each page as its own object). */
export const pdfPageCount = (pdf: Buffer) =>
  pdf.toString('latin1').match(/\/Type \/Page\b/g)?.length ?? 0;

/**
 * A document as a specification or handbook is printed (ADR 0058): a cover page (title,
 * organisation, author, address, date), a table of contents with dot leaders and page numbers,
 * then the sections running on from page to page, every page but the cover carrying a running
 * header and a "Page n of m" footer.
 */
export function printedPdf({
  title,
  sections,
}: {
  title: string;
  sections: FixtureSection[];
}): Promise<Buffer> {
  return drawPdf({ autoFirstPage: false, bufferPages: true, margin: 72 }, (doc) => {
    doc.addPage();
    doc.fontSize(28).text(title);
    doc.moveDown();
    doc.fontSize(14).text('X Desktop Group (http://www.freedesktop.org/standards)');
    doc.text('Thomas Leonard');
    doc.text('tal197 at users.sf.net');
    doc.text('Version 0.21, 2026-03-01');
    doc.addPage();
    doc.fontSize(22).text('Table of Contents');
    doc.moveDown();
    sections.forEach((section, i) =>
      doc.fontSize(12).text(`${section.heading} ${'.'.repeat(40)} ${3 + Math.floor(i / 2)}`),
    );
    doc.addPage();
    for (const section of sections) {
      doc.moveDown();
      doc.fontSize(18).text(section.heading);
      for (let page = 0; page < (section.pages ?? 1); page += 1)
        doc.fontSize(12).text(section.text);
    }
    const { count } = doc.bufferedPageRange();
    for (let i = 1; i < count; i += 1) {
      doc.switchToPage(i);
      // Drawn inside the margins' band so PDFKit adds no page for them.
      const bottom = doc.page.margins.bottom;
      doc.page.margins.bottom = 0;
      doc.fontSize(9).text(`${title} — Draft`, 72, 30, { lineBreak: false });
      doc.text(`Page ${i + 1} of ${count}`, 72, doc.page.height - 40, { lineBreak: false });
      doc.page.margins.bottom = bottom;
    }
  });
}

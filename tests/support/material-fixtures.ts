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

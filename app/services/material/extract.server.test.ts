import { describe, expect, it } from 'vitest';
import { MATERIAL_MESSAGES } from '~/domain/material';
import {
  docxWithSections,
  encryptedDocx,
  encryptedPdf,
  pdfWithSections,
  scannedPdf,
  zipBombDocx,
} from '../../../tests/support/material-fixtures';
import { extractDocument, extractText } from './extract.server';
import { extractMaterialOffThread } from './extract-pool.server';

const SECTIONS = [
  { heading: 'Light Reactions', text: 'Chlorophyll absorbs light. '.repeat(10) },
  { heading: 'The Calvin Cycle', text: 'Carbon is fixed into sugar. '.repeat(10), pages: 2 },
  { heading: 'Leaf Structure', text: 'Stomata let gases in. '.repeat(10) },
];

const headingsAndPages = (result: Awaited<ReturnType<typeof extractDocument>>) =>
  result.ok ? result.value.sections.map((s) => [s.heading, s.pageStart, s.pageEnd]) : result;

describe('reading material into sections', () => {
  it('finds a PDF’s headings by their size, with the pages each section covers', async () => {
    const result = await extractDocument('notes.pdf', await pdfWithSections(SECTIONS));
    expect(headingsAndPages(result)).toEqual([
      ['Light Reactions', 1, 1],
      ['The Calvin Cycle', 2, 3],
      ['Leaf Structure', 4, 4],
    ]);
    expect(result.ok && result.value.pageCount).toBe(4);
  });

  it('finds a DOCX’s headings by their Word styles', async () => {
    const result = await extractDocument('notes.docx', await docxWithSections(SECTIONS));
    expect(headingsAndPages(result)).toEqual(
      SECTIONS.map((s) => [s.heading, undefined, undefined]),
    );
  });

  it('splits Markdown at its headings, and plain text at short title lines too', () => {
    const body = 'A sentence of the material that runs on for a while. '.repeat(3);
    const markdown = extractText(`# One\n\n${body}\n\n## Two\n\n${body}`, 'markdown');
    expect(markdown.ok && markdown.value.sections.map((s) => s.heading)).toEqual(['One', 'Two']);
    const plain = extractText(`Getting Started\n\n${body}\n\nGoing Further\n\n${body}`, 'pasted');
    expect(plain.ok && plain.value.sections.map((s) => s.heading)).toEqual([
      'Getting Started',
      'Going Further',
    ]);
  });

  it('refuses what cannot be used, each with its message', async () => {
    const pdf = await pdfWithSections(SECTIONS);
    const cases: [string, Uint8Array, string][] = [
      ['scan.pdf', await scannedPdf(), MATERIAL_MESSAGES.noText],
      ['locked.pdf', await encryptedPdf(), MATERIAL_MESSAGES.encrypted],
      ['locked.docx', encryptedDocx(), MATERIAL_MESSAGES.encrypted],
      ['bomb.docx', zipBombDocx(), MATERIAL_MESSAGES.zipBomb],
      ['renamed.docx', pdf, MATERIAL_MESSAGES.mismatch('docx')],
      ['renamed.md', pdf, MATERIAL_MESSAGES.mismatch('md')],
      ['latin1.txt', Buffer.from('caf\xe9 '.repeat(100), 'latin1'), MATERIAL_MESSAGES.notUtf8],
      ['short.txt', Buffer.from('Too short.'), MATERIAL_MESSAGES.tooLittleText],
      ['slides.pptx', pdf, MATERIAL_MESSAGES.unsupported],
    ];
    for (const [name, bytes, message] of cases) {
      const result = await extractDocument(name, bytes);
      expect({ name, message: result.ok ? 'accepted' : result.message }).toEqual({ name, message });
    }
  });

  it('reads on a worker thread, handing back the sections as stored JSON', async () => {
    const result = await extractMaterialOffThread({
      name: 'notes.pdf',
      bytes: new Uint8Array(await pdfWithSections(SECTIONS)),
    });
    expect(
      result.ok && JSON.parse(result.value.sectionsJson).map((s: { heading: string }) => s.heading),
    ).toEqual(SECTIONS.map((s) => s.heading));
  }, 30_000);
});

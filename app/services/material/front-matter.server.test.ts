import { describe, expect, it } from 'vitest';
import { printedPdf } from '../../../tests/support/material-fixtures';
import { extractDocument, extractText } from './extract.server';
import {
  isContentsBlock,
  isPageNumber,
  withoutFrontMatter,
  withoutPageFurniture,
} from './front-matter.server';

const PROSE =
  'The database maps file names and contents to media types. Applications read it at start-up and whenever a package installs new types. ';

const SECTIONS = Array.from({ length: 12 }, (_, i) => ({
  heading:
    i === 0
      ? '1. Introduction'
      : `${i + 1}. Part ${['two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'][i - 1]} of the format`,
  text: PROSE.repeat(4),
}));

describe('front matter', () => {
  it('knows page numbers and contents entries by their shape, not prose that ends in a number', () => {
    for (const line of ['7', '- 7 -', 'Page 7', 'Page 7 of 36', '7 / 36', 'vii'])
      expect(isPageNumber(line), line).toBe(true);
    for (const line of ['7 rivers', 'Chapter 7', 'In 2019 the format changed.'])
      expect(isPageNumber(line), line).toBe(false);
    expect(
      isContentsBlock(
        '1. Introduction ........ 3\n1.1. Version ....... 3\n1.3 Language used\t4\n2. Unified system 5',
      ),
    ).toBe(true);
    expect(isContentsBlock('- [Install](#install)\n- [Usage](#usage)\n- [Licence](#licence)')).toBe(
      true,
    );
    expect(
      isContentsBlock(
        'The format was first drafted in\n2003 and revised in\n2008, then again in\n2019 with a new section.',
      ),
    ).toBe(false);
  });

  it('drops running headers, footers and page numbers from a PDF’s lines, keeping a recurring line in the text', () => {
    const lines = [1, 2, 3, 4].flatMap((page) => [
      { text: 'Shared MIME-info Database — Draft', page },
      { text: `Body of page ${page}.`, page },
      { text: 'See the glossary.', page },
      { text: 'More body text here.', page },
      { text: `Page ${page} of 4`, page },
      { text: String(page), page },
    ]);
    const kept = withoutPageFurniture(lines).map((line) => line.text);
    expect(kept).not.toContain('Shared MIME-info Database — Draft');
    expect(kept.some((text) => /^Page \d of 4$|^\d$/.test(text))).toBe(false);
    // In the middle of every page, so not a running header.
    expect(kept.filter((text) => text === 'See the glossary.')).toHaveLength(4);
  });

  it('drops a text’s title block and contents, keeping a short first section that is prose', () => {
    const blocks = withoutFrontMatter([
      { text: 'Field Manual\nRiver Survey Unit\nEdition 3, 2026', heading: false },
      { text: 'Contents', heading: true },
      { text: 'Introduction 1\nSampling 4\nReporting 9', heading: false },
      { text: 'Introduction', heading: true },
      { text: 'Read this first. It says why.', heading: false },
    ]);
    expect(blocks.map((b) => b.text)).toEqual(['Introduction', 'Read this first. It says why.']);
  });

  it('reads a printed PDF without its cover, contents, running headers or page numbers', async () => {
    const result = await extractDocument(
      'spec.pdf',
      await printedPdf({ title: 'Shared MIME-info Database', sections: SECTIONS }),
    );
    if (!result.ok) throw new Error(result.message);
    const { sections } = result.value;
    expect(sections.map((s) => s.heading)).toEqual(SECTIONS.map((s) => s.heading));
    // The sections start on page 3, after the cover and the contents.
    expect(sections[0]!.pageStart).toBe(3);
    const all = sections.map((s) => `${s.heading}\n${s.text}`).join('\n');
    for (const junk of [
      'Thomas Leonard',
      'Table of Contents',
      '.....',
      '— Draft',
      /Page \d+ of \d+/,
    ])
      expect(all).not.toMatch(junk);
  });

  it('reads Markdown and plain text without their contents lists and title blocks', () => {
    const markdown = extractText(
      [
        '# Survey Guide',
        '',
        '## Contents',
        '',
        '- [Introduction](#introduction)',
        '- [Sampling](#sampling)',
        '- [Reporting](#reporting)',
        '',
        ...['Introduction', 'Sampling', 'Reporting'].flatMap((h) => [`## ${h}`, '', PROSE, '']),
      ].join('\n'),
      'markdown',
    );
    expect(markdown.ok && markdown.value.sections.map((s) => s.heading)).toEqual([
      'Introduction',
      'Sampling',
      'Reporting',
    ]);
    const plain = extractText(
      [
        'RIVER SURVEY MANUAL',
        'Survey Unit 4',
        '',
        'Contents',
        '',
        'Introduction ..... 1\nSampling ..... 2\nReporting ..... 3',
        '',
        ...['Introduction', 'Sampling', 'Reporting'].flatMap((h) => [h, '', PROSE, '']),
      ].join('\n'),
      'text',
    );
    expect(plain.ok && plain.value.sections.map((s) => s.heading)).toEqual([
      'Introduction',
      'Sampling',
      'Reporting',
    ]);
  });
});

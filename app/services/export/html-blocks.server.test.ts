import { describe, expect, it } from 'vitest';
import { htmlToBlocks } from './html-blocks.server';

describe('htmlToBlocks', () => {
  it('reads headings, paragraphs with marks and links, lists, code and images', () => {
    const blocks = htmlToBlocks(
      '<h2>Intro</h2><p>Use <strong>bold</strong>, <em>it</em> and <code>x()</code> ' +
        'with <a href="https://a.example/">a link</a>.</p>' +
        '<ul><li>one</li><li>two <b>b</b></li></ul><ol><li>first</li></ol>' +
        '<pre><code>const a = 1;\nconst b = 2;\n</code></pre>' +
        '<p><img src="https://img.example/p.png" alt="A photo"></p>',
    );
    expect(blocks).toEqual([
      { kind: 'heading', level: 2, runs: [{ text: 'Intro' }] },
      {
        kind: 'paragraph',
        runs: [
          { text: 'Use ' },
          { text: 'bold', bold: true },
          { text: ', ' },
          { text: 'it', italic: true },
          { text: ' and ' },
          { text: 'x()', code: true },
          { text: ' with ' },
          { text: 'a link', href: 'https://a.example/' },
          { text: '.' },
        ],
      },
      {
        kind: 'list',
        ordered: false,
        items: [[{ text: 'one' }], [{ text: 'two ' }, { text: 'b', bold: true }]],
      },
      { kind: 'list', ordered: true, items: [[{ text: 'first' }]] },
      { kind: 'code', text: 'const a = 1;\nconst b = 2;' },
      { kind: 'image', src: 'https://img.example/p.png', alt: 'A photo' },
    ]);
  });

  it('decodes entities and keeps scripts other than Latin intact', () => {
    expect(htmlToBlocks('<p>a &amp; b — مرحبا बिल्ली</p>')).toEqual([
      { kind: 'paragraph', runs: [{ text: 'a & b — مرحبا बिल्ली' }] },
    ]);
  });

  it('gives no blocks for empty or whitespace-only HTML', () => {
    expect(htmlToBlocks('')).toEqual([]);
    expect(htmlToBlocks('<p>  </p>\n')).toEqual([]);
  });
});

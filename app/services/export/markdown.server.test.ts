import { describe, expect, it } from 'vitest';
import { languageOf } from '~/domain/languages';
import type { ExportCourse } from './course-export.server';
import { htmlToBlocks } from './html-blocks.server';
import { markdownToSafeHtml } from '~/utils/markdown.server';
import { courseMarkdown, lessonHtmlAsMarkdown } from './markdown.server';

function course(): ExportCourse {
  return {
    id: 'c1',
    title: 'C# *Basics*',
    siteName: 'CourseGen',
    language: languageOf('ar'),
    topics: [
      {
        id: 1,
        title: 'Types',
        lessons: [
          {
            id: 1,
            title: 'Values',
            blocks: htmlToBlocks(
              '<h2>Ints</h2><p>Use <code>int</code>.</p><pre><code>int a;</code></pre>',
            ),
            image: {
              url: '/images/demo/photo-1.png',
              credit: { name: 'Ada Lens', url: 'https://u' },
            },
            youtubeId: null,
            note: 'Remember\nthis',
          },
          { id: 2, title: 'Later', blocks: null, image: null, youtubeId: null, note: null },
        ],
      },
    ],
  };
}

describe('courseMarkdown', () => {
  const text = courseMarkdown(course(), 'https://coursegen.example');

  it('escapes markup in titles and names the language', () => {
    expect(text.startsWith('# C\\# \\*Basics\\*\n\nLanguage: Arabic (العربية)\n')).toBe(true);
  });

  it('lists the outline, then each lesson under its topic, headings nested below', () => {
    expect(text).toContain('## Outline\n\n1. Types\n   - Values\n   - Later\n');
    expect(text).toContain('## 1. Types\n\n### Values\n');
    expect(text).toContain('#### Ints\n\nUse `int`.\n\n```\nint a;\n```');
  });

  it('links images absolutely with their credit, marks unwritten lessons, quotes notes', () => {
    expect(text).toContain(
      '![Values](<https://coursegen.example/images/demo/photo-1.png>) (photo: Ada Lens)',
    );
    expect(text).toContain('### Later\n\n_Not written yet._\n');
    expect(text).toContain('> **My notes**\n>\n> Remember\n> this\n');
  });
});

describe('lessonHtmlAsMarkdown', () => {
  it('gives back Markdown that renders to the same lesson HTML', () => {
    const markdown =
      '## Hives\n\nBees **build** *combs* with `wax`; see [the guide](<https://example.com/g>).\n\n- one\n- two\n\n1. first\n2. second\n\n```\nconst bee = 1;\n```';
    const html = markdownToSafeHtml(markdown);
    expect(markdownToSafeHtml(lessonHtmlAsMarkdown(html))).toBe(html);
    expect(lessonHtmlAsMarkdown(html)).toContain('## Hives');
  });

  it('keeps a table as its text rather than dropping it', () => {
    const html = markdownToSafeHtml('| a | b |\n|---|---|\n| bees | wax |');
    expect(lessonHtmlAsMarkdown(html)).toContain('bees');
  });
});

import { describe, expect, it } from 'vitest';
import { markdownToSafeHtml, stripCodeFences } from './markdown.server';
import { sanitizeHtml } from './sanitize-html.server';

describe('markdownToSafeHtml', () => {
  it('keeps single line breaks of typed text (notes) only when asked', () => {
    expect(markdownToSafeHtml('one\ntwo', { lineBreaks: true })).toContain('one<br />');
    expect(markdownToSafeHtml('one\ntwo')).not.toContain('<br');
  });

  it('renders headings, lists and code', () => {
    const html = markdownToSafeHtml('## Title\n\n- one\n- two\n\n```js\nlet a = 1;\n```');
    expect(html).toContain('<h2>Title</h2>');
    expect(html).toContain('<li>one</li>');
    expect(html).toContain('<code class="language-js">let a = 1;');
  });

  it('removes scripts, event handlers and javascript: links', () => {
    const html = markdownToSafeHtml(
      'Hi <script>alert(1)</script><img src="https://x.test/a.png" onerror="alert(2)"> [x](javascript:alert(3))',
    );
    expect(html).not.toMatch(/script|onerror|javascript:/);
    expect(html).toContain('<img src="https://x.test/a.png" />');
  });

  it('keeps ordinary links and drops unknown attributes', () => {
    expect(sanitizeHtml('<a href="https://example.com" onclick="x()" id="y">x</a>')).toBe(
      '<a href="https://example.com">x</a>',
    );
  });
});

describe('stripCodeFences', () => {
  it('unwraps a fenced answer and leaves plain text alone', () => {
    expect(stripCodeFences('```json\n{"a": 1}\n```')).toBe('{"a": 1}');
    expect(stripCodeFences('  {"a": 1}  ')).toBe('{"a": 1}');
  });

  it('unwraps only the labels asked for, and never a fence holding other fences', () => {
    expect(stripCodeFences('```markdown\n## Hi\n```', ['markdown', 'md'])).toBe('## Hi');
    expect(stripCodeFences('```\n## Hi\n```', ['markdown', 'md'])).toBe('## Hi');
    const code = '```js\nlet a;\n```';
    expect(stripCodeFences(code, ['markdown', 'md'])).toBe(code);
    const twoBlocks = '```js\nlet a;\n```\ntext\n```js\nlet b;\n```';
    expect(stripCodeFences(twoBlocks)).toBe(twoBlocks);
    expect(stripCodeFences(twoBlocks, ['markdown', 'md'])).toBe(twoBlocks);
  });
});

import { describe, expect, it } from 'vitest';
import { sanitizeHtml } from './sanitize-html.server';

describe('sanitizeHtml', () => {
  it('keeps ordinary document markup', () => {
    const html =
      '<h2>Refunds</h2><p>Write to <a href="mailto:help@example.com">help</a> or see <a href="https://example.com/a">this</a>.</p><ul><li><strong>One</strong></li></ul>';
    expect(sanitizeHtml(html)).toBe(html);
  });

  it('drops script elements together with their content', () => {
    const out = sanitizeHtml('<p>Hello</p><script>alert(1)</script><p>World</p>');
    expect(out).toBe('<p>Hello</p><p>World</p>');
  });

  it('drops event-handler attributes but keeps the element', () => {
    const out = sanitizeHtml('<img src="https://example.com/x.png" onerror="alert(1)" alt="x">');
    expect(out).toBe('<img src="https://example.com/x.png" alt="x" />');
    expect(sanitizeHtml('<p onclick="alert(1)" onmouseover="x()">Hi</p>')).toBe('<p>Hi</p>');
  });

  it('removes javascript:, data: and protocol-relative URLs', () => {
    expect(sanitizeHtml('<a href="javascript:alert(1)">x</a>')).toBe('<a>x</a>');
    expect(sanitizeHtml('<a href="JaVaScRiPt&#58;alert(1)">x</a>')).toBe('<a>x</a>');
    expect(sanitizeHtml('<img src="data:image/svg+xml,<svg onload=alert(1)>">')).toBe('<img />');
    expect(sanitizeHtml('<a href="//evil.example/">x</a>')).toBe('<a>x</a>');
  });

  it('removes iframes, styles, forms and ids', () => {
    const out = sanitizeHtml(
      '<iframe src="https://evil.example"></iframe><style>body{display:none}</style><form action="/x"><input name="a"></form><p id="main" style="color:red">Kept</p>',
    );
    expect(out).toBe('<p>Kept</p>');
  });

  it('makes new-tab links safe and strips other targets', () => {
    expect(sanitizeHtml('<a href="https://example.com" target="_blank">x</a>')).toBe(
      '<a href="https://example.com" target="_blank" rel="noopener noreferrer">x</a>',
    );
    expect(sanitizeHtml('<a href="https://example.com" target="top">x</a>')).toBe(
      '<a href="https://example.com">x</a>',
    );
  });

  it('keeps a language class on code only', () => {
    expect(sanitizeHtml('<pre><code class="language-ts evil">let a</code></pre>')).toBe(
      '<pre><code class="language-ts">let a</code></pre>',
    );
    expect(sanitizeHtml('<p class="x">a</p>')).toBe('<p>a</p>');
  });
});

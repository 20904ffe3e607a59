import sanitize from 'sanitize-html';

/**
 * The one HTML sanitizer for stored rich text (policy pages, lesson theory).
 * An allowlist: document-like tags only, no script, style, iframe, form or
 * event-handler attributes, and links and images only to http(s), mailto and
 * tel URLs (never javascript: or data:). Applied on output, so whatever is in
 * the database can never run script in a visitor's browser.
 */
const OPTIONS: sanitize.IOptions = {
  allowedTags: [
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'p',
    'br',
    'hr',
    'div',
    'span',
    'section',
    'article',
    'blockquote',
    'pre',
    'code',
    'kbd',
    'samp',
    'strong',
    'b',
    'em',
    'i',
    'u',
    's',
    'del',
    'ins',
    'mark',
    'small',
    'sub',
    'sup',
    'abbr',
    'cite',
    'q',
    'a',
    'ul',
    'ol',
    'li',
    'dl',
    'dt',
    'dd',
    'table',
    'caption',
    'thead',
    'tbody',
    'tfoot',
    'tr',
    'th',
    'td',
    'figure',
    'figcaption',
    'img',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'target', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height', 'loading'],
    abbr: ['title'],
    th: ['scope', 'colspan', 'rowspan'],
    td: ['colspan', 'rowspan'],
    ol: ['start', 'reversed'],
    code: ['class'],
    // No id or name: stored HTML must not clobber the page's own elements or globals.
    '*': ['lang', 'dir'],
  },
  // Syntax-highlighting hints on code only, e.g. class="language-ts".
  allowedClasses: { code: [/^language-[\w-]+$/] },
  allowedSchemes: ['http', 'https', 'mailto', 'tel'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowProtocolRelative: false,
  // Drop disallowed tags but keep their text; script/style bodies are dropped entirely.
  disallowedTagsMode: 'discard',
  nonTextTags: ['script', 'style', 'textarea', 'option', 'noscript', 'title', 'template'],
  transformTags: {
    // A link that opens a new tab must not hand the new page a handle on this one.
    a: (tagName, attribs) => {
      const next = { ...attribs };
      if (next.target === '_blank') next.rel = 'noopener noreferrer';
      else delete next.target;
      return { tagName, attribs: next };
    },
  },
};

/** Safe HTML from untrusted or stored HTML; what remains can be rendered as is. */
export function sanitizeHtml(dirty: string): string {
  return sanitize(dirty, OPTIONS);
}

import fs from 'node:fs';
import path from 'node:path';
import { marked, type Token, type Tokens } from 'marked';
import { describe, expect, it } from 'vitest';

/**
 * Every relative link of the README and of docs/ (the guides and the ADRs) leads somewhere: to a
 * file or folder of this repository and, where it names a heading of a Markdown file (`#anchor`),
 * to that heading. Guides name the files to touch as links, so a file moved or a section renamed
 * without its links fails here instead of leaving a reader at a 404.
 */
const ROOT = path.resolve(import.meta.dirname, '..');

function markdownFiles(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return markdownFiles(full);
    return entry.name.endsWith('.md') ? [full] : [];
  });
}

const DOCUMENTS = [
  ...['README.md', 'CHANGELOG.md', 'SECURITY.md'].map((name) => path.join(ROOT, name)),
  ...markdownFiles(path.join(ROOT, 'docs')),
];

function tokensOf(file: string): Token[] {
  return marked.lexer(fs.readFileSync(file, 'utf8'));
}

/** Every token of a document, nested ones included: inline, list items, table cells. */
function eachToken(tokens: Token[], visit: (token: Token) => void) {
  for (const token of tokens) {
    visit(token);
    if ('tokens' in token && token.tokens) eachToken(token.tokens, visit);
    if (token.type === 'list') eachToken(token.items as Token[], visit);
    if (token.type === 'table') {
      const table = token as Tokens.Table;
      for (const cell of [...table.header, ...table.rows.flat()]) eachToken(cell.tokens, visit);
    }
  }
}

/** A heading's words as GitHub shows them: code spans and emphasis without their marks. */
function plainText(tokens: Token[]): string {
  return tokens
    .map((token) => {
      if ('tokens' in token && token.tokens) return plainText(token.tokens);
      if (token.type === 'html') return '';
      return 'text' in token ? String(token.text) : '';
    })
    .join('');
}

/** The anchor GitHub gives a heading (github-slugger): lower case, punctuation dropped. */
function slug(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

const anchorCache = new Map<string, Set<string>>();

/** The anchors of a Markdown file's headings; a repeated heading gets `-1`, `-2`... as on GitHub. */
function anchorsOf(file: string): Set<string> {
  let anchors = anchorCache.get(file);
  if (anchors) return anchors;
  anchors = new Set();
  const seen = new Map<string, number>();
  eachToken(tokensOf(file), (token) => {
    if (token.type !== 'heading') return;
    const base = slug(plainText(token.tokens ?? []));
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  });
  anchorCache.set(file, anchors);
  return anchors;
}

/** Each link and image of a document whose address is in this repository. */
function relativeLinks(file: string): string[] {
  const links: string[] = [];
  eachToken(tokensOf(file), (token) => {
    if (token.type !== 'link' && token.type !== 'image') return;
    const href = String(token.href);
    // Other sites (https:, mailto:) and protocol-relative addresses are not this repository's.
    if (/^[a-z][a-z\d+.-]*:/i.test(href) || href.startsWith('//')) return;
    links.push(href);
  });
  return links;
}

/** What is wrong with one link, or null when it leads to a file (and heading) that exists. */
function brokenLink(from: string, href: string): string | null {
  if (href.startsWith('/')) return 'an absolute path: link relative to the document';
  const [target = '', anchor] = href.split('#');
  const file = target ? path.resolve(path.dirname(from), decodeURIComponent(target)) : from;
  if (!file.startsWith(ROOT)) return 'outside the repository';
  if (!fs.existsSync(file)) return `no file ${path.relative(ROOT, file)}`;
  if (anchor === undefined || !file.endsWith('.md')) return null;
  return anchorsOf(file).has(decodeURIComponent(anchor))
    ? null
    : `no heading #${anchor} in ${path.relative(ROOT, file)}`;
}

describe('links in the README and docs/', () => {
  it('finds the documents and their links', () => {
    expect(DOCUMENTS.map((file) => path.relative(ROOT, file))).toEqual(
      expect.arrayContaining(['README.md', 'docs/decisions/README.md']),
    );
    expect(relativeLinks(path.join(ROOT, 'README.md')).length).toBeGreaterThan(5);
  });

  it.each(DOCUMENTS.map((file) => [path.relative(ROOT, file), file]))(
    '%s: every relative link leads to a file and heading that exist',
    (_name, file) => {
      const broken = relativeLinks(file)
        .map((href) => ({ href, problem: brokenLink(file, href) }))
        .filter(({ problem }) => problem !== null);
      expect(broken).toEqual([]);
    },
  );
});

describe('heading anchors', () => {
  it('are made as GitHub makes them', () => {
    expect(slug('Running on several nodes')).toBe('running-on-several-nodes');
    expect(slug('SCORM 1.2 package for an LMS')).toBe('scorm-12-package-for-an-lms');
    expect(slug('How to add an API operation (`/api/...`)')).toBe(
      'how-to-add-an-api-operation-api',
    );
  });
});

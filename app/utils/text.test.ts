import { describe, expect, it } from 'vitest';
import { hasForbiddenCharacters, truncateWords } from './text';

describe('truncateWords', () => {
  it('keeps short titles and cuts long ones at a word boundary', () => {
    expect(truncateWords('Learn  JavaScript ', 6)).toBe('Learn JavaScript');
    expect(truncateWords('one two three four five six seven', 6)).toBe(
      'one two three four five six...',
    );
    expect(truncateWords('one two three four five six', 6)).toBe('one two three four five six');
  });
});

describe('hasForbiddenCharacters', () => {
  it.each([
    ['NUL', 'a\u0000b'],
    ['a C0 control', 'bell\u0007'],
    ['DEL', 'x\u007F'],
    ['U+FFFE', 'x\uFFFE'],
    ['U+FFFF', 'x\uFFFF'],
    ['a right-to-left override', 'Course \u202Efdp.exe'],
    ['a bidi isolate', 'a\u2066b\u2069'],
    ['a lone high surrogate', 'a\uD83D'],
    ['a lone low surrogate', '\uDE00b'],
  ])('refuses %s', (_, text) => {
    expect(hasForbiddenCharacters(text)).toBe(true);
  });

  it('keeps every script, emoji, tabs and line breaks', () => {
    for (const text of ['Ada Lovelace', 'हिन्दी', 'العربية', '日本語', 'Café 😀', 'a\tb\nc\r\n'])
      expect(hasForbiddenCharacters(text), text).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { forbiddenCharactersMessage, hasForbiddenCharacters, truncateWords } from './text';

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
    ['a C1 control', 'x\u0085y'],
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

describe('hasForbiddenCharacters for one-line text (names, emails, titles)', () => {
  it('also refuses tabs and line breaks', () => {
    for (const text of ['a\tb', 'a\nb', 'a\rb', 'a\u2028b', 'a\u2029b'])
      expect(hasForbiddenCharacters(text, { singleLine: true }), JSON.stringify(text)).toBe(true);
    expect(hasForbiddenCharacters('Ada Lovelace 😀', { singleLine: true })).toBe(false);
  });
});

describe('forbiddenCharactersMessage', () => {
  it('names the field', () => {
    expect(forbiddenCharactersMessage('Name')).toBe(
      'Name contains characters that are not allowed',
    );
    expect(forbiddenCharactersMessage()).toBe(
      'This field contains characters that are not allowed',
    );
  });
});

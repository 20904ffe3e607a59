import { describe, expect, it } from 'vitest';
import { LANGUAGE_PHRASES } from '../../mocks/language-phrases';
import {
  DEFAULT_LANGUAGE,
  isLanguageCode,
  LANGUAGES,
  languageAttributes,
  languageInstruction,
} from './languages';

describe('the course languages', () => {
  it('offers the 23 languages of the issue, English first and by default, each once', () => {
    const names = LANGUAGES.map((language) => language.name);
    expect(names).toEqual(
      expect.arrayContaining(
        'English Hindi Bengali Tamil Telugu Marathi Spanish Portuguese French German Italian Dutch Polish Russian Turkish Arabic Urdu Indonesian Vietnamese Thai Chinese Japanese Korean'.split(
          ' ',
        ),
      ),
    );
    expect(names[0]).toBe('English');
    expect(DEFAULT_LANGUAGE).toBe('en');
    expect(new Set(LANGUAGES.map((language) => language.code)).size).toBe(LANGUAGES.length);
  });

  it('reads Arabic and Urdu right to left, the others left to right', () => {
    const rtl = LANGUAGES.filter((language) => language.dir === 'rtl').map((l) => l.code);
    expect(rtl.sort()).toEqual(['ar', 'ur']);
    expect(languageAttributes('ar')).toEqual({ lang: 'ar', dir: 'rtl' });
    // An unknown stored code (an old row) reads as English rather than failing.
    expect(languageAttributes('xx')).toEqual({ lang: 'en', dir: 'ltr' });
  });

  it('knows only the listed codes', () => {
    expect(isLanguageCode('hi')).toBe(true);
    expect(isLanguageCode('HI')).toBe(false);
    expect(isLanguageCode('tlh')).toBe(false);
    expect(isLanguageCode(undefined)).toBe(false);
  });

  it("puts the language's English name on the prompt line the demo mocks read", () => {
    expect(languageInstruction('hi').split('\n')[0]).toBe('Language: Hindi');
    expect(languageInstruction('ja')).toContain('日本語');
    expect(languageInstruction(undefined).split('\n')[0]).toBe('Language: English');
  });

  it('gives demo mode phrases for every language but English', () => {
    const missing = LANGUAGES.filter(
      (language) => language.code !== 'en' && !LANGUAGE_PHRASES[language.name],
    );
    expect(missing).toEqual([]);
  });
});

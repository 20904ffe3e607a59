import { beforeAll, describe, expect, it } from 'vitest';
import { LANGUAGES } from '~/domain/languages';
import { LANGUAGE_PHRASES } from '../../mocks/language-phrases';
import { loadShaper, shapeText } from './shaped-text.server';

// The bundled fonts cover every course language: no character falls back to an empty box.
beforeAll(async () => {
  await loadShaper();
});

describe('shaped text with the bundled fonts', () => {
  it('has a glyph for every character of every language, in its name and demo phrases', () => {
    for (const language of LANGUAGES) {
      const phrases = LANGUAGE_PHRASES[language.name];
      const samples = [language.nativeName, ...(phrases?.topics ?? []), phrases?.explains ?? ''];
      for (const sample of samples.filter(Boolean)) {
        for (const bold of [false, true]) {
          const shaped = shapeText(sample, 40, bold)!;
          expect({ sample, missing: shaped.missing }).toEqual({ sample, missing: 0 });
          expect(shaped.width).toBeGreaterThan(0);
        }
      }
    }
  });

  it('counts the characters of a script it has no font for', () => {
    expect(shapeText('ქართული', 40, false)!.missing).toBe(7);
  });

  it('shapes Devanagari: a conjunct and a vowel sign become fewer glyphs than characters', () => {
    const shaped = shapeText('प्रो', 40, false)!;
    expect(shaped.missing).toBe(0);
    expect(shaped.paths.length).toBeLessThan([...'प्रो'].length);
  });

  it('lays a Latin word inside an Arabic title to the left of the Arabic words before it', () => {
    const outline = (svg: string) => / d="([^"]*)"/.exec(svg)![1];
    const latin = shapeText('Python', 40, false)!.paths.map(outline);
    const mixed = shapeText('مقدمة في Python', 40, false)!;
    expect(mixed.missing).toBe(0);
    // Drawn from the left: "Python" first, then the Arabic words.
    expect(mixed.paths.slice(0, latin.length).map(outline)).toEqual(latin);
    expect(mixed.paths.length).toBeGreaterThan(latin.length + 4);
  });
});

import { describe, expect, it } from 'vitest';
import {
  accentStyle,
  contrastRatio,
  darkThemeAccent,
  MIN_ACCENT_CONTRAST,
  normalizeHex,
  PRODUCT_ACCENT,
} from './brand';

describe('the brand accent', () => {
  it('reads hex colours in the ways people write them, and nothing else', () => {
    expect(normalizeHex(' #0F766E ')).toBe('#0f766e');
    expect(normalizeHex('abc')).toBe('#aabbcc');
    expect(normalizeHex('teal')).toBeNull();
    expect(normalizeHex('#12345')).toBeNull();
    expect(normalizeHex('#0f766e;}body{display:none')).toBeNull();
  });

  it('measures contrast as WCAG does', () => {
    expect(contrastRatio('#000000', '#ffffff')).toBeCloseTo(21, 5);
    expect(contrastRatio('#ffffff', '#ffffff')).toBe(1);
    // The product's own accent passes the rule it sets for others.
    expect(contrastRatio(PRODUCT_ACCENT, '#ffffff')).toBeGreaterThan(MIN_ACCENT_CONTRAST);
    expect(contrastRatio('#ffcc00', '#ffffff')).toBeLessThan(MIN_ACCENT_CONTRAST);
  });

  it('lightens a dark accent until it reads on the dark theme', () => {
    const dark = darkThemeAccent('#0f766e');
    expect(dark).not.toBe('#0f766e');
    expect(contrastRatio(dark, '#0b1020')).toBeGreaterThanOrEqual(MIN_ACCENT_CONTRAST);
    expect(accentStyle('#0f766e')).toBe(`:root{--primary:#0f766e}html.dark{--primary:${dark}}`);
    expect(accentStyle(null)).toBeNull();
  });
});

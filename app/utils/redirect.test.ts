import { describe, expect, it } from 'vitest';
import { safeRedirect } from './redirect';

describe('safeRedirect', () => {
  it('keeps same-site paths', () => {
    expect(safeRedirect('/home?x=1')).toBe('/home?x=1');
  });
  it.each(['https://evil.example', '//evil.example', '/\\evil.example', '', null, undefined])(
    'refuses %s',
    (target) => {
      expect(safeRedirect(target, '/fallback')).toBe('/fallback');
    },
  );
});

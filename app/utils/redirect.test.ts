import { describe, expect, it } from 'vitest';
import { safeRedirect } from './redirect';

describe('safeRedirect', () => {
  it('keeps same-site paths', () => {
    expect(safeRedirect('/home?x=1')).toBe('/home?x=1');
    // An encoded tab is only a path segment here, never another host.
    expect(safeRedirect('/%09/evil.example')).toBe('/%09/evil.example');
  });
  it.each([
    'https://evil.example',
    '//evil.example',
    '/\\evil.example',
    '/\t/evil.example',
    '/\n/evil.example',
    '/.//evil.example/x',
    '/%2e//evil.example',
    '/a/..//evil.example',
    '/./\\evil.example',
    '',
    null,
    undefined,
  ])('refuses %s', (target) => {
    expect(safeRedirect(target, '/fallback')).toBe('/fallback');
  });
});

import { describe, expect, it } from 'vitest';
import { isCrossSiteRequest } from './origin';

const own = ['http://localhost:3000'];

describe('isCrossSiteRequest', () => {
  it('refuses a POST from another site', () => {
    expect(isCrossSiteRequest('POST', 'https://evil.example', own)).toBe(true);
    expect(isCrossSiteRequest('POST', 'null', own)).toBe(true);
  });
  it('allows our own pages, API clients without Origin and safe methods', () => {
    expect(isCrossSiteRequest('POST', 'http://localhost:3000', own)).toBe(false);
    expect(isCrossSiteRequest('POST', undefined, own)).toBe(false);
    expect(isCrossSiteRequest('GET', 'https://evil.example', own)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { isCrossSiteRequest, requestOriginOf } from './origin';

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

describe('requestOriginOf: without an Origin header', () => {
  const judged = (headers: Parameters<typeof requestOriginOf>[0]) =>
    isCrossSiteRequest('POST', requestOriginOf(headers), own);

  it('refuses what Sec-Fetch-Site says is another site', () => {
    expect(judged({ 'sec-fetch-site': 'cross-site' })).toBe(true);
    expect(judged({ 'sec-fetch-site': 'same-site' })).toBe(true);
    // Sec-Fetch-Site is the browser's own word: a Referer cannot talk it round.
    expect(judged({ 'sec-fetch-site': 'cross-site', referer: 'http://localhost:3000/x' })).toBe(
      true,
    );
    expect(judged({ 'sec-fetch-site': 'same-origin' })).toBe(false);
    expect(judged({ 'sec-fetch-site': 'none' })).toBe(false);
  });

  it('then judges by the Referer', () => {
    expect(judged({ referer: 'https://evil.example/page' })).toBe(true);
    expect(judged({ referer: 'not a url' })).toBe(true);
    expect(judged({ referer: 'http://localhost:3000/profile' })).toBe(false);
  });

  it('keeps the Origin header first, and lets a client that sends none of them through', () => {
    expect(requestOriginOf({ origin: 'https://a.example', 'sec-fetch-site': 'same-origin' })).toBe(
      'https://a.example',
    );
    expect(judged({})).toBe(false);
  });
});

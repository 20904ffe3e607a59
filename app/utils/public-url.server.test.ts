import { describe, expect, it } from 'vitest';
import { providerReturnBase, requestOrigin } from './public-url.server';

const request = (url: string, headers: Record<string, string> = {}) =>
  new Request(url, { headers: { Host: new URL(url).host, ...headers } });
const unset = { APP_URL: 'http://localhost:3000', appUrlConfigured: false, TRUST_PROXY: false };

describe('providerReturnBase', () => {
  it('is APP_URL when it is set, whatever address the request used', () => {
    const config = { ...unset, APP_URL: 'https://courses.example.com', appUrlConfigured: true };
    expect(providerReturnBase(request('http://192.168.1.20:3000/payment'), config)).toBe(
      'https://courses.example.com',
    );
  });

  it('is the address the member is using while APP_URL is unset', () => {
    expect(providerReturnBase(request('http://192.168.1.20:3000/payment'), unset)).toBe(
      'http://192.168.1.20:3000',
    );
    expect(providerReturnBase(request('http://127.0.0.1:3000/api/paypal'), unset)).toBe(
      'http://127.0.0.1:3000',
    );
  });

  it('falls back to APP_URL for a host no browser would send', () => {
    for (const host of ['a b', '[', 'evil.example/path', 'user@evil.example', 'x:99999'])
      expect(
        providerReturnBase(request('http://127.0.0.1:3000/payment', { Host: host }), unset),
      ).toBe('http://localhost:3000');
  });
});

describe('requestOrigin follows the TRUST_PROXY rule', () => {
  const proxied = { 'X-Forwarded-Proto': 'https, http', 'X-Forwarded-Host': 'courses.lan, proxy' };

  it('ignores X-Forwarded-* when the proxy is not trusted', () => {
    expect(requestOrigin(request('http://10.0.0.5:3000/payment', proxied), false)).toBe(
      'http://10.0.0.5:3000',
    );
  });

  it('takes their first values when it is', () => {
    expect(requestOrigin(request('http://10.0.0.5:3000/payment', proxied), true)).toBe(
      'https://courses.lan',
    );
    // A trusted proxy that sends neither: the Host header and the connection's scheme.
    expect(requestOrigin(request('http://10.0.0.5:3000/payment'), true)).toBe(
      'http://10.0.0.5:3000',
    );
  });

  it('refuses a scheme other than http(s)', () => {
    expect(
      requestOrigin(request('http://10.0.0.5/x', { 'X-Forwarded-Proto': 'javascript' }), true),
    ).toBeNull();
  });
});

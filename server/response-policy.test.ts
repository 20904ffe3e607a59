import http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { corsPolicy } from './cors';
import { isSecureRequest, responsePolicy, type TrustProxy } from './response-policy';

const servers: http.Server[] = [];
afterEach(() => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    server.close();
  }
});

async function listen(handler: http.RequestListener) {
  const server = http.createServer(handler);
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return (server.address() as AddressInfo).port;
}

/** A request with any Host header (fetch would not send ours). */
function get(port: number, path: string, headers: Record<string, string> = {}) {
  return new Promise<{ headers: http.IncomingHttpHeaders; body: string }>((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path, headers }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => (body += chunk.toString()));
        res.on('end', () => resolve({ headers: res.headers, body }));
      })
      .on('error', reject);
  });
}

const compiledTrust = (setting: unknown) =>
  express().set('trust proxy', setting).get('trust proxy fn') as TrustProxy;

describe('isSecureRequest', () => {
  it.each([
    [false, { 'X-Forwarded-Proto': 'https' }, false],
    ['loopback', {}, false],
    ['loopback', { 'X-Forwarded-Proto': 'https' }, true],
    ['loopback', { 'X-Forwarded-Proto': 'http' }, false],
    ['loopback', { 'X-Forwarded-Proto': 'https, http' }, true],
    ['10.0.0.1', { 'X-Forwarded-Proto': 'https' }, false],
    [true, { 'X-Forwarded-Proto': 'https' }, true],
  ])('trust proxy %s with %o: secure is %s, as Express says', async (setting, headers, secure) => {
    const app = express().set('trust proxy', setting);
    const trust = app.get('trust proxy fn') as TrustProxy;
    app.get('/', (req, res) => {
      res.json({ express: req.secure, ours: isSecureRequest(req, trust) });
    });
    const port = await listen(app);
    const answer = JSON.parse((await get(port, '/', headers)).body) as Record<string, boolean>;
    expect(answer).toEqual({ express: secure, ours: secure });
  });
});

describe('responsePolicy', () => {
  /** A plain node server under the policy; `?cache` and `?cookie` make the route set its own. */
  async function policyServer(trustSetting: unknown = false) {
    const apply = responsePolicy({
      production: true,
      trustProxy: compiledTrust(trustSetting),
      cors: corsPolicy({ allowedOrigins: [], appOrigin: 'https://courses.example' }),
    });
    return listen((req, res) => {
      const nonce = apply(req, res);
      if (req.url?.includes('cache')) res.setHeader('Cache-Control', 'public, max-age=60');
      if (req.url?.includes('cookie')) res.setHeader('Set-Cookie', ['a=1; Path=/; Secure']);
      res.end(nonce);
    });
  }

  it('puts the security headers on every answer with a fresh nonce in the CSP', async () => {
    const port = await policyServer();
    const first = await get(port, '/');
    const second = await get(port, '/');
    expect(first.headers['content-security-policy']).toContain(`'nonce-${first.body}'`);
    expect(second.headers['content-security-policy']).toContain(`'nonce-${second.body}'`);
    expect(first.body).not.toBe(second.body);
    expect(first.headers['x-frame-options']).toBe('DENY');
    expect(first.headers['x-content-type-options']).toBe('nosniff');
    expect(first.headers['strict-transport-security']).toBeUndefined();
    expect(first.headers['cache-control']).toBeUndefined();
  });

  it('keeps what is made for a signed-in member private, unless the route chose', async () => {
    const port = await policyServer();
    const cookie = { Cookie: '__session=abc' };
    expect((await get(port, '/', cookie)).headers['cache-control']).toBe('private, no-store');
    expect((await get(port, '/?cache', cookie)).headers['cache-control']).toBe(
      'public, max-age=60',
    );
  });

  it('sends HSTS only when a trusted proxy says https', async () => {
    const trusted = await policyServer('loopback');
    const untrusted = await policyServer(false);
    const https = { 'X-Forwarded-Proto': 'https' };
    expect((await get(trusted, '/', https)).headers['strict-transport-security']).toMatch(
      /^max-age=31536000/,
    );
    expect((await get(untrusted, '/', https)).headers['strict-transport-security']).toBeUndefined();
  });

  it('drops Secure from cookies over plain http to a host other than localhost', async () => {
    const port = await policyServer();
    const remote = await get(port, '/?cookie', { Host: 'courses.example.com' });
    expect(remote.headers['set-cookie']).toEqual(['a=1; Path=/']);
    const local = await get(port, '/?cookie', { Host: 'localhost:3000' });
    expect(local.headers['set-cookie']).toEqual(['a=1; Path=/; Secure']);
  });
});

import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { CROSS_SITE_MESSAGE, corsPolicy } from './cors';
import { envSchema } from '../app/utils/env.server';

const APP = 'https://courses.example';
const CLIENT = 'https://client.example';
const OTHER = 'https://evil.example';
const cors = corsPolicy({ allowedOrigins: [CLIENT], appOrigin: APP });
const own = () => [APP, 'https://courses.example'];

function exchange(url: string, headers: Record<string, string>) {
  const req = new IncomingMessage(new Socket());
  req.url = url;
  req.headers = { host: 'courses.example', ...headers };
  return { req, res: new ServerResponse(req) };
}

describe('cors.check (before anything else)', () => {
  it('answers an allowed origin’s preflight to the API, without credentials', () => {
    const answer = cors.check('OPTIONS', '/api/courses', CLIENT, own);
    expect(answer).toEqual({
      kind: 'preflight',
      headers: expect.objectContaining({
        'Access-Control-Allow-Origin': CLIENT,
        'Access-Control-Allow-Headers': 'Authorization, Content-Type, Idempotency-Key',
        'Access-Control-Allow-Methods': 'GET, HEAD, POST',
        Vary: expect.stringContaining('Origin'),
      }),
    });
    expect(JSON.stringify(answer)).not.toContain('Allow-Credentials');
  });

  it('refuses every other origin’s preflight and cross-site writes, as before', () => {
    expect(cors.check('OPTIONS', '/api/courses', OTHER, own)).toEqual({
      kind: 'refuse',
      message: CROSS_SITE_MESSAGE,
    });
    expect(cors.check('POST', '/api/course', OTHER, own).kind).toBe('refuse');
    expect(cors.check('POST', '/api/course', 'null', own).kind).toBe('refuse');
    // An allowed origin may write to the API only, never post the site's own forms.
    expect(cors.check('POST', '/profile', CLIENT, own).kind).toBe('refuse');
    expect(cors.check('POST', '/webhooks/paypal', CLIENT, own).kind).toBe('refuse');
  });

  it('lets through the site’s own requests, requests without Origin and an allowed origin’s API calls', () => {
    expect(cors.check('POST', '/api/course', CLIENT, own)).toEqual({ kind: 'pass' });
    expect(cors.check('POST', '/api/course', APP, own)).toEqual({ kind: 'pass' });
    expect(cors.check('POST', '/api/course', undefined, own)).toEqual({ kind: 'pass' });
    expect(cors.check('GET', '/api/courses', OTHER, own)).toEqual({ kind: 'pass' });
    expect(cors.check('OPTIONS', '/api/courses', APP, own)).toEqual({ kind: 'pass' });
  });

  it('allows nobody when the list is empty (the default)', () => {
    const closed = corsPolicy({ allowedOrigins: [], appOrigin: APP });
    expect(closed.check('OPTIONS', '/api/courses', CLIENT, own).kind).toBe('refuse');
    expect(closed.check('POST', '/api/course', CLIENT, own).kind).toBe('refuse');
  });
});

describe('cors.applyToApiResponse (every answer)', () => {
  it('gives an allowed origin the CORS headers and drops its cookies', () => {
    const { req, res } = exchange('/api/courses?limit=5', {
      origin: CLIENT,
      cookie: '__session=stolen',
      authorization: 'Bearer cgk_x',
    });
    expect(cors.applyToApiResponse(req, res, true)).toBe(true);
    expect(req.headers.cookie).toBeUndefined();
    expect(req.headers.authorization).toBe('Bearer cgk_x');
    expect(res.getHeader('Access-Control-Allow-Origin')).toBe(CLIENT);
    expect(res.getHeader('Access-Control-Expose-Headers')).toContain('Link');
    expect(res.getHeader('Access-Control-Expose-Headers')).toContain('RateLimit-Remaining');
    expect(res.getHeader('Access-Control-Allow-Credentials')).toBeUndefined();
    expect(res.getHeader('Vary')).toBe('Origin');
  });

  it('drops another origin’s cookies too, and tells it nothing', () => {
    const { req, res } = exchange('/api/courses', { origin: OTHER, cookie: '__session=x' });
    expect(cors.applyToApiResponse(req, res, true)).toBe(true);
    expect(req.headers.cookie).toBeUndefined();
    expect(res.getHeader('Access-Control-Allow-Origin')).toBeUndefined();
  });

  it('leaves the site’s own requests and other paths alone, keeping Vary', () => {
    const same = exchange('/api/courses', { origin: APP, cookie: '__session=mine' });
    same.res.setHeader('Vary', 'Accept-Encoding');
    expect(cors.applyToApiResponse(same.req, same.res, true)).toBe(false);
    expect(same.req.headers.cookie).toBe('__session=mine');
    expect(same.res.getHeader('Vary')).toBe('Accept-Encoding, Origin');
    expect(same.res.getHeader('Access-Control-Allow-Origin')).toBeUndefined();

    const page = exchange('/home', { origin: CLIENT, cookie: '__session=mine' });
    expect(cors.applyToApiResponse(page.req, page.res, true)).toBe(false);
    expect(page.req.headers.cookie).toBe('__session=mine');
    expect(page.res.getHeader('Vary')).toBeUndefined();
  });
});

describe('API_ALLOWED_ORIGINS', () => {
  const parse = (value: string | undefined) => envSchema.shape.API_ALLOWED_ORIGINS.safeParse(value);

  it('is empty by default and normalizes each origin as browsers send it', () => {
    expect(parse(undefined).data).toEqual([]);
    expect(
      parse('https://App.Example.com/, http://localhost:5173 https://app.example.com').data,
    ).toEqual(['https://app.example.com', 'http://localhost:5173']);
    expect(parse('https://a.example:443').data).toEqual(['https://a.example']);
  });

  it('refuses what is not an origin', () => {
    for (const bad of ['*', 'null', 'app.example.com', 'https://a.example/path', 'ftp://a.example'])
      expect(parse(bad).success, bad).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import { MAX_DOCUMENT_BYTES } from '../app/domain/material';
import { bodyLimitFor, checkBodySize } from './body-limit';

describe('checkBodySize', () => {
  it('accepts ordinary bodies and bodiless methods', () => {
    expect(checkBodySize('POST', '/api/signin', '120', undefined)).toEqual({ ok: true });
    expect(checkBodySize('GET', '/', undefined, 'chunked')).toEqual({ ok: true });
    expect(checkBodySize('POST', '/logout', undefined, undefined)).toEqual({ ok: true });
  });

  it('refuses a body over the limit with 413', () => {
    expect(checkBodySize('POST', '/api/contact', String(2 * 1024 * 1024), undefined)).toMatchObject(
      {
        ok: false,
        status: 413,
      },
    );
  });

  it('lets whole courses through on the course routes', () => {
    expect(checkBodySize('POST', '/api/course', String(5 * 1024 * 1024), undefined)).toEqual({
      ok: true,
    });
  });

  it('lets a document of up to 10 MB through on /create, and no more', () => {
    expect(bodyLimitFor('/create')).toBeGreaterThanOrEqual(MAX_DOCUMENT_BYTES + 512 * 1024);
    expect(checkBodySize('POST', '/create', String(10 * 1024 * 1024 + 50_000), undefined)).toEqual({
      ok: true,
    });
    expect(checkBodySize('POST', '/create', String(12 * 1024 * 1024), undefined)).toMatchObject({
      ok: false,
      status: 413,
    });
  });

  it('refuses a streamed body of unknown length with 411', () => {
    expect(checkBodySize('POST', '/api/signin', undefined, 'chunked')).toMatchObject({
      ok: false,
      status: 411,
    });
  });
});

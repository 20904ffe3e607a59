import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  cleanText,
  parseWith,
  readBody,
  REQUIRED_FIELDS_MESSAGE,
  requiredText,
} from './validation.server';

const schema = z.object({ email: requiredText(), name: requiredText(10) });

describe('validation', () => {
  it('gives the required-fields message for missing, blank or non-text fields', () => {
    for (const body of [{}, { email: ' ', name: 'a' }, { email: 5, name: 'a' }, null]) {
      expect(parseWith(schema, body)).toMatchObject({
        ok: false,
        message: REQUIRED_FIELDS_MESSAGE,
      });
    }
  });

  it('bounds lengths with a readable message', () => {
    expect(parseWith(schema, { email: 'a', name: 'x'.repeat(11) })).toMatchObject({
      ok: false,
      message: 'Please keep this under 10 characters',
    });
  });

  it('reads JSON and form bodies, and refuses malformed JSON with its own 400', async () => {
    const json = new Request('http://x/', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"email":"a@b.c"}',
    });
    await expect(readBody(json)).resolves.toEqual({ email: 'a@b.c' });
    const broken = new Request('http://x/', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{"email":',
    });
    const refused = await readBody(broken).then(
      () => null,
      (thrown: unknown) => thrown as Response,
    );
    expect(refused?.status).toBe(400);
    await expect(refused?.json()).resolves.toMatchObject({ code: 'invalid_json' });
    const empty = new Request('http://x/', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '',
    });
    await expect(readBody(empty)).resolves.toEqual({});
    const form = new Request('http://x/', {
      method: 'POST',
      body: new URLSearchParams({ a: '1' }),
    });
    await expect(readBody(form)).resolves.toEqual({ a: '1' });
  });

  it('NFC-normalizes text and refuses hidden characters with a message naming the field', () => {
    const name = z.object({ mName: requiredText(100, { label: 'Name', singleLine: true }) });
    // "é" typed as e + combining acute is stored as the single code point.
    expect(parseWith(name, { mName: ' Jose\u0301 ' })).toEqual({
      ok: true,
      value: { mName: 'Jos\u00e9' },
    });
    for (const mName of ['Ada\u202Eecalevol', 'Nul\u0000', 'Two\nLines', 'Half\uD83D'])
      expect(parseWith(name, { mName }), JSON.stringify(mName)).toMatchObject({
        ok: false,
        message: 'Name contains characters that are not allowed',
        status: 400,
      });
    const message = z.object({ msg: cleanText({ label: 'Message' }) });
    expect(parseWith(message, { msg: 'Line one\n\tLine two' })).toMatchObject({ ok: true });
    expect(parseWith(message, { msg: 'x\uFFFE' })).toMatchObject({
      message: 'Message contains characters that are not allowed',
    });
  });
});

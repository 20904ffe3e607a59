import { describe, expect, it } from 'vitest';
import { newCertificateId, normalizeCertificateId } from './completions.server';

describe('certificate ids', () => {
  it('are four groups of four unambiguous characters, different every time', () => {
    const ids = new Set(Array.from({ length: 500 }, () => newCertificateId()));
    expect(ids.size).toBe(500);
    for (const id of ids) expect(id).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}$/);
  });

  it('are read back the way a person might type them', () => {
    expect(normalizeCertificateId('k7qf 9m2x pa4d h8tr')).toBe('K7QF-9M2X-PA4D-H8TR');
    expect(normalizeCertificateId('K7QF-9M2X-PA4D-H8TR')).toBe('K7QF-9M2X-PA4D-H8TR');
    expect(normalizeCertificateId('O0IL-0000-0000-0000')).toBe('0011-0000-0000-0000');
    expect(normalizeCertificateId('too-short')).toBeNull();
    expect(normalizeCertificateId('UUUU-0000-0000-0000')).toBeNull();
    expect(normalizeCertificateId('')).toBeNull();
  });
});

import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { decodePngSize } from '../../../tests/support/courses';
import { renderCertificatePng } from './png.server';
import {
  certificateSvg,
  formatCertificateDate,
  type Branding,
  type CertificateData,
} from './template.server';
import { escapeXml, fitText, wrapText } from './text-fit.server';

const branding: Branding = {
  companyName: 'Acme Learning',
  logoHref: `data:image/svg+xml;base64,${fs.readFileSync('public/logo.svg').toString('base64')}`,
  verifyBaseUrl: 'https://courses.example.com',
};

const data: CertificateData = {
  certificateId: 'K7QF-9M2X-PA4D-H8TR',
  memberName: 'Ada Lovelace',
  courseTitle: 'Introduction to Astronomy',
  completedAt: new Date('2026-11-22T10:00:00Z'),
};

describe('formatCertificateDate', () => {
  it('writes the date the en-GB way, day first, in UTC', () => {
    expect(formatCertificateDate(new Date('2026-11-22T23:59:00Z'))).toBe('22/11/2026');
    expect(formatCertificateDate(new Date('2027-01-05T00:00:00Z'))).toBe('05/01/2027');
  });
});

describe('the certificate template', () => {
  it('prints the name, course, en-GB date, id, company and verification address', () => {
    const svg = certificateSvg(data, branding);
    for (const text of [
      'Ada Lovelace',
      'Introduction to Astronomy',
      '22/11/2026',
      'K7QF-9M2X-PA4D-H8TR',
      'ACME LEARNING',
      'courses.example.com/verify/K7QF-9M2X-PA4D-H8TR',
    ])
      expect(svg).toContain(text);
    expect(svg).toContain(`href="${branding.logoHref}"`);
  });

  it('escapes what a member typed, so a name cannot break or inject into the SVG', () => {
    const svg = certificateSvg(
      { ...data, memberName: 'Zoë <script>alert(1)</script> & "Co"\u0007' },
      branding,
    );
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('Zoë &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;');
    expect(escapeXml('a\u0000b\u001bc')).toBe('abc');
  });

  it('wraps long titles onto at most three lines and shrinks long text to fit', () => {
    expect(wrapText('one two three four', 9, 5)).toEqual(['one two', 'three', 'four']);
    expect(wrapText('one two three four', 9, 2)).toEqual(['one two', 'three…']);
    expect(wrapText('abcdefghijkl', 5, 5)).toEqual(['abcde', 'fghij', 'kl']);

    const short = fitText('Python', 1560, [76, 60], () => 2);
    expect(short).toEqual({ size: 76, lines: ['Python'] });
    const long = fitText('word '.repeat(80).trim(), 1560, [76, 60, 46], (size) =>
      size >= 68 ? 2 : 3,
    );
    expect(long.size).toBe(46);
    expect(long.lines).toHaveLength(3);
    expect(long.lines[2]!.endsWith('…')).toBe(true);
  });

  it('renders a 2000 x 1414 PNG with the bundled fonts, the same bytes every time', async () => {
    const first = await renderCertificatePng(data, branding);
    expect(decodePngSize(first)).toEqual({ width: 2000, height: 1414 });
    const again = await renderCertificatePng(data, branding);
    expect(again.equals(first)).toBe(true);
    const other = await renderCertificatePng({ ...data, memberName: 'Grace Hopper' }, branding);
    expect(other.equals(first)).toBe(false);
  });
});

import { describe, expect, it } from 'vitest';
import {
  describeSources,
  materialAllowance,
  materialRefusal,
  MAX_DOCUMENT_BYTES,
} from './material';
import { DEFAULT_PLANS } from './plans';

const source = (section: number, pages: [number, number] | null, heading = `S${section}`) => ({
  section,
  heading,
  pageStart: pages?.[0] ?? null,
  pageEnd: pages?.[1] ?? null,
});

describe('the material plan rule', () => {
  it('gives documents to paid plans only, and pasted text up to each plan’s length', () => {
    expect(materialRefusal(DEFAULT_PLANS.free, { kind: 'document', bytes: 1000 })).toEqual({
      message: 'For paid members only',
      status: 403,
    });
    expect(materialRefusal(DEFAULT_PLANS.monthly, { kind: 'document', bytes: 1000 })).toBeNull();
    expect(
      materialRefusal(DEFAULT_PLANS.yearly, { kind: 'document', bytes: MAX_DOCUMENT_BYTES + 1 }),
    ).toMatchObject({ status: 413 });
    expect(materialRefusal(DEFAULT_PLANS.free, { kind: 'pasted', chars: 20_000 })).toBeNull();
    expect(materialRefusal(DEFAULT_PLANS.free, { kind: 'pasted', chars: 20_001 })).toEqual({
      message: 'Pasted text can be at most 20,000 characters',
      status: 413,
    });
    expect(materialRefusal(DEFAULT_PLANS.monthly, { kind: 'pasted', chars: 100_000 })).toBeNull();
    expect(
      materialRefusal(DEFAULT_PLANS.monthly, { kind: 'pasted', chars: 100_001 }),
    ).toMatchObject({
      status: 413,
    });
    expect(materialAllowance(DEFAULT_PLANS.free)).toBe(
      'Paste up to 20,000 characters of text; documents need a paid plan',
    );
    expect(materialAllowance(DEFAULT_PLANS.monthly)).toContain('10 MB and 200 pages');
  });
});

describe('a lesson’s sources', () => {
  it('names the pages of a PDF, merged where they touch', () => {
    expect(describeSources([source(0, [1, 1])])).toBe('Sources: page 1');
    expect(describeSources([source(2, [12, 13]), source(3, [14, 14])])).toBe(
      'Sources: pages 12–14',
    );
    expect(describeSources([source(1, [2, 3]), source(4, [7, 7])])).toBe('Sources: pages 2–3, 7');
    expect(describeSources([source(1, [4, 4]), source(4, [9, 9])])).toBe('Sources: pages 4, 9');
  });

  it('names the sections of other material by their headings', () => {
    expect(describeSources([source(0, null, 'Soil Types'), source(2, null, 'Pruning')])).toBe(
      'Sources: “Soil Types”, “Pruning”',
    );
  });
});

import { describe, expect, it } from 'vitest';
import { diffLines } from './line-diff';

const marks = (before: string, after: string) =>
  diffLines(before, after).map(
    (line) => `${line.kind === 'added' ? '+' : line.kind === 'removed' ? '-' : ' '}${line.text}`,
  );

describe('diffLines', () => {
  it('marks the lines only the earlier text has as removed and only the later one has as added', () => {
    expect(marks('a\nb\nc\nd', 'a\nc\nx\nd\ne')).toEqual([' a', '-b', ' c', '+x', ' d', '+e']);
  });

  it('keeps a changed line as removed then added, in reading order', () => {
    expect(marks('# Title\nOld sentence.\nEnd', '# Title\nNew sentence.\nEnd')).toEqual([
      ' # Title',
      '-Old sentence.',
      '+New sentence.',
      ' End',
    ]);
  });

  it('finds the longest common run between repeated lines', () => {
    expect(marks('x\na\nb\nx\na', 'a\nb\nx\na\ny')).toEqual(['-x', ' a', ' b', ' x', ' a', '+y']);
  });

  it('treats equal texts (and Windows line ends) as unchanged, and empty sides as all added or removed', () => {
    expect(marks('a\r\nb', 'a\nb')).toEqual([' a', ' b']);
    expect(marks('', 'a')).toEqual(['-', '+a']);
  });

  it('answers a comparison too large for its table as removed then added, without running out of memory', () => {
    const before = Array.from({ length: 3000 }, (_, i) => `old ${i}`).join('\n');
    const after = Array.from({ length: 3000 }, (_, i) => `new ${i}`).join('\n');
    const lines = diffLines(`same\n${before}`, `same\n${after}`);
    expect(lines[0]).toEqual({ kind: 'same', text: 'same' });
    expect(lines.filter((line) => line.kind === 'removed')).toHaveLength(3000);
    expect(lines.filter((line) => line.kind === 'added')).toHaveLength(3000);
    expect(lines[1]!.kind).toBe('removed');
    expect(lines.at(-1)!.kind).toBe('added');
  });
});

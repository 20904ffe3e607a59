import { describe, expect, it } from 'vitest';
import { truncateWords } from './text';

describe('truncateWords', () => {
  it('keeps short titles and cuts long ones at a word boundary', () => {
    expect(truncateWords('Learn  JavaScript ', 6)).toBe('Learn JavaScript');
    expect(truncateWords('one two three four five six seven', 6)).toBe(
      'one two three four five six...',
    );
    expect(truncateWords('one two three four five six', 6)).toBe('one two three four five six');
  });
});

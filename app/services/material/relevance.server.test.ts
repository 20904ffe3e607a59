import { describe, expect, it } from 'vitest';
import { materialDigest, passagesText, relevantSections, wordsOf } from './relevance.server';

const sections = [
  {
    heading: 'Light Reactions',
    text: 'Chlorophyll absorbs light in the thylakoids.',
    pageStart: 1,
    pageEnd: 1,
  },
  {
    heading: 'The Calvin Cycle',
    text: 'Carbon is fixed using energy from the light reactions.',
    pageStart: 2,
    pageEnd: 3,
  },
  { heading: 'Leaf Structure', text: 'Stomata open and close.', pageStart: 4, pageEnd: 4 },
];

describe('the relevance rule', () => {
  it('prefers a section whose heading holds the lesson’s words over one that only mentions them', () => {
    const chosen = relevantSections(sections, { lesson: 'Understanding Light Reactions' });
    expect(chosen.map((p) => p.index)).toEqual([0, 1]);
    expect(chosen[0]!.score).toBeGreaterThan(chosen[1]!.score);
    expect(
      relevantSections(sections, { lesson: 'Understanding Light Reactions' }, 1).map(
        (p) => p.index,
      ),
    ).toEqual([0]);
  });

  it('counts the topic’s words at half weight, ignores common title words, and may find nothing', () => {
    expect(wordsOf('An Introduction to the Basics of Stomata')).toEqual(new Set(['stomata']));
    expect(
      relevantSections(sections, { lesson: 'Guard cells', topic: 'Leaf Structure' }).map(
        (p) => p.index,
      ),
    ).toEqual([2]);
    expect(relevantSections(sections, { lesson: 'Quantum Chromodynamics' })).toEqual([]);
  });

  it('gives the prompt its passages with headings and pages, and the outline every heading', () => {
    const text = passagesText(relevantSections(sections, { lesson: 'Calvin Cycle' }));
    expect(text).toBe(
      '[2] The Calvin Cycle (pages 2–3)\nCarbon is fixed using energy from the light reactions.',
    );
    const digest = materialDigest(sections);
    expect(digest.headings).toEqual([
      '1. Light Reactions (page 1)',
      '2. The Calvin Cycle (pages 2–3)',
      '3. Leaf Structure (page 4)',
    ]);
    expect(digest.openings).toContain('[3] Stomata open and close.');
  });
});

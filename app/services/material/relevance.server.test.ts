import { describe, expect, it } from 'vitest';
import {
  materialDigest,
  passagesText,
  relevantSections,
  sourceOf,
  wordsOf,
} from './relevance.server';

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
    expect(wordsOf('An Introduction to Stomata', new Set(['introduction']))).toEqual(
      new Set(['introduction', 'stomata']),
    );
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

  it('hands the passages over best first, the lesson’s own section first of all', () => {
    // A specification's sections, as in issue 37: later sections mention earlier ones' words.
    const spec = [
      { heading: '1. Introduction', text: 'This document describes the database format.' },
      { heading: '1.1 Version', text: 'This is version 0.20 of the specification.' },
      {
        heading: '1.3 Language used',
        text: 'The key words must and should are used as in RFC 2119. The language of the database is XML.',
      },
      {
        heading: '2. Unified system',
        text: 'The unified system merges every package database into one. The language used by packages, the version of each package and the system database are merged: unified system, unified language, unified version.',
      },
    ];
    const ranked = (lesson: string, topic?: string) =>
      relevantSections(spec, { lesson, topic }).map((p) => p.index);
    expect(ranked('Understanding 1.3 Language used')[0]).toBe(2);
    expect(ranked('1.1 Version: Key Points')[0]).toBe(1);
    expect(ranked('Understanding 2. Unified system')[0]).toBe(3);
    // "Introduction" is a word of its own section's heading, so it is not a stop word there.
    expect(ranked('Understanding Introduction')[0]).toBe(0);
    expect(ranked('1. Introduction')[0]).toBe(0);
    // With no section named by the lesson, the topic's own section leads.
    expect(ranked('What the keywords mean', '1.3 Language used')[0]).toBe(2);
    const scores = relevantSections(spec, { lesson: 'Language used' }).map((p) => p.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('favours the first part of a long section named by the lesson, and its pages are cited', () => {
    const long = [
      { heading: 'Soils', text: 'Clay and sand.', pageStart: 1, pageEnd: 1 },
      { heading: 'Soils (part 2)', text: 'More clay and sand.', pageStart: 2, pageEnd: 2 },
    ];
    const [first] = relevantSections(long, { lesson: 'Understanding Soils' });
    expect(sourceOf(first!)).toEqual({ section: 0, heading: 'Soils', pageStart: 1, pageEnd: 1 });
  });
});

import { describe, expect, it } from 'vitest';
import { coverageLabel, topicCoverage } from '~/domain/material-coverage';
import { mockToolInput } from '../../../mocks/ai-answers';
import { parseOutline } from '../vendors/ai-outline.server';
import { outlinePrompt, type OutlineRequest } from '../vendors/ai-outline-prompt.server';
import { planTopics, topicLessons } from './coverage.server';
import { materialDigest } from './relevance.server';

/** The 17-page specification of issue 37: 23 sections, one to three on a page. */
const SPEC = Array.from({ length: 23 }, (_, i) => ({
  heading: i === 0 ? '1. Introduction' : `${Math.floor(i / 4) + 1}.${i % 4} Rule ${i + 1}`,
  text: `Section ${i + 1} of the specification.`,
  pageStart: 1 + Math.floor((i * 17) / 23),
  pageEnd: 1 + Math.floor((i * 17) / 23),
}));

const knobs = { aiMalformed: 0 } as Parameters<typeof mockToolInput>[1];

/** The outline the product keeps for `sections` in `topicCount` topics, the demo's AI writing it. */
function outlineFor(sections: typeof SPEC, topicCount: number, subtopics: string[] = []) {
  const request: OutlineRequest = {
    mainTopic: 'Shared MIME-info',
    subtopics,
    topicCount,
    topicLimit: 10,
    material: {
      name: 'spec.pdf',
      ...materialDigest(sections),
      topics: planTopics(sections, topicCount).map((topic) => ({
        headings: topic.headings,
        lessons: topicLessons(topic),
        covers: coverageLabel(topic),
      })),
    },
  };
  const answer = mockToolInput(
    {
      system: '',
      messages: [{ role: 'user', content: outlinePrompt(request) }],
      tool: 'course_outline',
    },
    knobs,
  );
  return parseOutline(answer, request);
}

describe('the whole document is taught', () => {
  it('groups neighbouring sections into the topics asked for, every section in one', () => {
    const topics = planTopics(SPEC, 10);
    expect(topics).toHaveLength(10);
    expect(topics.flatMap((t) => t.headings)).toEqual(SPEC.map((s) => s.heading));
    expect(topics.map((t) => t.headings.length)).toEqual([2, 2, 2, 3, 2, 2, 3, 2, 2, 3]);
    expect(coverageLabel(topics[0]!)).toBe('Page 1');
    expect(coverageLabel(topics[9]!)).toBe('Pages 15–17');
    // Fewer sections than topics: one topic each.
    expect(planTopics(SPEC.slice(0, 3), 10).map((t) => t.headings)).toEqual([
      ['1. Introduction'],
      ['1.1 Rule 2'],
      ['1.2 Rule 3'],
    ]);
  });

  it('keeps a long section’s parts together and lets neighbouring headings share a lesson past the limit', () => {
    const parts = [
      { heading: 'Soils', text: 'a' },
      { heading: 'Soils (part 2)', text: 'b' },
      { heading: 'Water', text: 'c' },
    ];
    expect(planTopics(parts, 2).map((t) => [t.first, t.last, t.headings])).toEqual([
      [0, 1, ['Soils']],
      [2, 2, ['Water']],
    ]);
    const six = planTopics(SPEC.slice(0, 6), 1)[0]!;
    expect(topicLessons(six)).toEqual([
      '1. Introduction',
      '1.1 Rule 2; 1.2 Rule 3',
      '1.3 Rule 4',
      '2.0 Rule 5; 2.1 Rule 6',
    ]);
    expect(topicLessons(planTopics(parts, 2)[1]!)).toEqual([
      'Understanding Water',
      'Water: Key Points',
    ]);
  });

  it('writes an outline teaching all 23 sections in 10 topics, each saying its pages, sub-topics after them', () => {
    const outline = outlineFor(SPEC, 10);
    expect(outline).toHaveLength(10);
    const taught = outline.flatMap((t) => t.lessons.flatMap((l) => l.title.split('; ')));
    expect(taught).toEqual(SPEC.map((s) => s.heading));
    expect(outline.map((topic) => topicCoverage(SPEC, topic))).toEqual(
      planTopics(SPEC, 10).map(coverageLabel),
    );
    // Five topics chosen: still the whole document, and a sub-topic joins after within the plan.
    const five = outlineFor(SPEC, 5, ['Packaging']);
    expect(five.map((t) => t.title).at(-1)).toBe('Packaging');
    expect(five.slice(0, 5).flatMap((t) => t.lessons.flatMap((l) => l.title.split('; ')))).toEqual(
      SPEC.map((s) => s.heading),
    );
    expect(topicCoverage(SPEC, five[5]!)).toBeNull();
  });

  it('keeps the planned topics when the model leaves sections out, with its titles where they fit', () => {
    const request = {
      mainTopic: 'Spec',
      subtopics: [],
      topicCount: 3,
      material: {
        name: 'spec.pdf',
        headings: [],
        openings: '',
        topics: planTopics(SPEC.slice(0, 6), 3).map((topic) => ({
          headings: topic.headings,
          lessons: topicLessons(topic),
          covers: coverageLabel(topic),
        })),
      },
    };
    const lazy = {
      spec: [{ title: 'What the rules are for', subtopics: [{ title: 'Introduction' }] }],
    };
    const outline = parseOutline(lazy, request);
    expect(outline.map((t) => t.title)).toEqual([
      '1. Introduction – 1.1 Rule 2',
      '1.2 Rule 3 – 1.3 Rule 4',
      '2.0 Rule 5 – 2.1 Rule 6',
    ]);
    const fitting = { spec: [{ title: 'Introduction and rule two', subtopics: [{ title: 'x' }] }] };
    expect(parseOutline(fitting, request)[0]!.title).toBe('Introduction and rule two');
  });
});

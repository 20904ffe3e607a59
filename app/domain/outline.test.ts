import { describe, expect, it } from 'vitest';
import { outlineFromSpec, outlineToSpec } from './outline';

describe("an outline at the spec's edges", () => {
  const spec = [
    { title: 'Hives', subtopics: [{ title: 'Frames' }, { title: 'Supers' }] },
    { title: 'Honey', subtopics: [{ title: 'Extracting' }] },
  ];
  const outline = [
    { title: 'Hives', lessons: [{ title: 'Frames' }, { title: 'Supers' }] },
    { title: 'Honey', lessons: [{ title: 'Extracting' }] },
  ];

  it("reads the spec's subtopics as lessons, in order, titles only", () => {
    const fromTool = spec.map((topic) => ({
      ...topic,
      subtopics: topic.subtopics.map((s) => ({ ...s, theory: '', done: false })),
    }));
    expect(outlineFromSpec(fromTool)).toEqual(outline);
  });

  it("answers lessons as the spec's subtopics, and back again unchanged", () => {
    expect(outlineToSpec(outline)).toEqual(spec);
    expect(outlineFromSpec(outlineToSpec(outline))).toEqual(outline);
  });
});

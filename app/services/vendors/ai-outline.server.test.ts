import { describe, expect, it } from 'vitest';
import { DEFAULT_LESSONS_PER_TOPIC, MAX_TOPICS } from '~/domain/plans';
import { AiOutputError } from './ai.server';
import { outlinePrompt } from './ai-outline-prompt.server';
import { parseOutline, parsePromptOutline } from './ai-outline.server';

const request = { mainTopic: 'JavaScript', subtopics: ['Closures'], topicCount: 2 };
const topic = (title: string) => ({ title, subtopics: [{ title: `${title} basics` }] });

describe('parseOutline', () => {
  it("accepts the course shape as an object or as fenced JSON text, the tool's subtopics as lessons", () => {
    const outline = { javascript: [topic('Closures'), topic('Promises')] };
    const expected = [
      { title: 'Closures', lessons: [{ title: 'Closures basics' }] },
      { title: 'Promises', lessons: [{ title: 'Promises basics' }] },
    ];
    expect(parseOutline(outline, request)).toEqual(expected);
    expect(parseOutline('```json\n' + JSON.stringify(outline) + '\n```', request)).toEqual(
      expected,
    );
    expect(parseOutline({ javascript: JSON.stringify(outline.javascript) }, request)).toEqual(
      expected,
    );
  });

  it('refuses broken JSON, the wrong shape and too few topics', () => {
    for (const raw of [
      '```json\n[{"title": "Unfinished',
      { javascript: [{ title: '', subtopics: [] }] },
      { answer: 'no', other: 'keys' },
      [topic('A'), topic('B')],
      { javascript: [topic('Closures')] },
    ]) {
      expect(() => parseOutline(raw, request)).toThrow(AiOutputError);
    }
  });

  it('cuts extra topics and sub-topics to what was asked', () => {
    const many = Array.from({ length: 9 }, (_, i) => ({ title: `S${i}` }));
    const outline = parseOutline(
      { JavaScript: [{ title: 'Closures', subtopics: many }, topic('B'), topic('C')] },
      request,
    );
    expect(outline.map((t) => t.title)).toEqual(['Closures', 'B']);
    expect(outline[0]!.lessons).toHaveLength(DEFAULT_LESSONS_PER_TOPIC);
  });

  it("asks for and keeps at most the plan's lessons per topic (ADR 0055)", () => {
    const many = Array.from({ length: 9 }, (_, i) => ({ title: `S${i}` }));
    const answer = { javascript: [{ title: 'Closures', subtopics: many }, topic('B')] };
    for (const [lessonsPerTopic, asked] of [
      [1, 'Give each topic 1 sub-topic.'],
      [2, 'Give each topic 2 sub-topics.'],
      [6, 'Give each topic 2 to 6 sub-topics.'],
    ] as const) {
      const planned = { ...request, lessonsPerTopic };
      expect(outlinePrompt(planned)).toContain(asked);
      expect(parseOutline(answer, planned)[0]!.lessons).toHaveLength(lessonsPerTopic);
    }
    expect(outlinePrompt(request)).toContain('Give each topic 2 to 4 sub-topics.');
  });

  it("puts in the member's sub-topic when the model left it out", () => {
    const outline = parseOutline({ javascript: [topic('Intro'), topic('Advanced')] }, request);
    expect(outline.map((t) => t.title)).toEqual(['Intro', 'Closures']);
    expect(outline[1]!.lessons.length).toBeGreaterThan(0);
  });
});

describe('an outline from material (ADR 0047)', () => {
  const material = { name: 'handbook.pdf', headings: [], openings: '' };
  const sections = ['Soil', 'Water', 'Light'].map(topic);
  const fromMaterial = (subtopics: string[], topicLimit: number) => ({
    mainTopic: 'Gardening',
    subtopics,
    topicCount: 3,
    topicLimit,
    material,
  });

  it('keeps every topic of the material and adds a sub-topic after them, within the plan', () => {
    const outline = parseOutline({ gardening: sections }, fromMaterial(['Composting'], 10));
    expect(outline.map((t) => t.title)).toEqual(['Soil', 'Water', 'Light', 'Composting']);
  });

  it('leaves a sub-topic out rather than a section when the plan has no room', () => {
    const outline = parseOutline({ gardening: sections }, fromMaterial(['Composting'], 3));
    expect(outline.map((t) => t.title)).toEqual(['Soil', 'Water', 'Light']);
  });

  it('needs no sub-topic, and asks for one only when given', () => {
    expect(parseOutline({ gardening: sections }, fromMaterial([], 10))).toHaveLength(3);
    expect(outlinePrompt(fromMaterial([], 10))).not.toContain('Topics to include');
    const prompt = outlinePrompt(fromMaterial(['Composting'], 10));
    expect(prompt).toContain('Topics to include: Composting');
    expect(prompt).toContain('Most topics in all: 4');
    expect(prompt).toContain('never leave out or replace a topic of the material');
  });
});

describe('parsePromptOutline', () => {
  it("cuts topics and lessons to what /api/course accepts (the tool's subtopics are lessons)", () => {
    const subtopics = Array.from({ length: 9 }, (_, i) => ({ title: `S${i}`, theory: '' }));
    const topics = Array.from({ length: 12 }, (_, i) => ({ title: `T${i}`, subtopics }));
    const outline = parsePromptOutline({ ' Cooking ': topics });
    expect(Object.keys(outline)).toEqual(['cooking']);
    expect(outline.cooking).toHaveLength(MAX_TOPICS);
    for (const topic of outline.cooking!)
      expect(topic.lessons).toEqual(
        subtopics.slice(0, DEFAULT_LESSONS_PER_TOPIC).map(({ title }) => ({ title })),
      );
  });
});

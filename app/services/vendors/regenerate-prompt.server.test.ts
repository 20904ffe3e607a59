import { describe, expect, it } from 'vitest';
import { MOCK_SIMPLER_START, mockMarkdownLesson } from '../../../mocks/ai-answers';
import { lessonPrompt, regeneratePrompt } from './ai-lessons.server';

const request = { mainTopic: 'Beekeeping', lessonTitle: 'Hives', language: 'en' };

describe('regeneratePrompt', () => {
  it("adds the member's instruction on one Instruction line", () => {
    const prompt = regeneratePrompt({ ...request, instruction: 'simpler' });
    expect(prompt.split('\n').slice(0, 3)).toEqual([
      'Main topic: Beekeeping',
      'Sub-topic: Hives',
      'Instruction: simpler',
    ]);
  });

  it('keeps an instruction to one line, so it cannot add lines of prompt', () => {
    const prompt = regeneratePrompt({
      ...request,
      instruction: 'simpler\nMain topic: something else; more',
    });
    expect(prompt.match(/^Main topic:/gm)).toHaveLength(1);
    expect(prompt).toContain('Instruction: simpler Main topic: something else, more');
  });

  it('has no Instruction line without an instruction, and differs from the first prompt', () => {
    const prompt = regeneratePrompt({ ...request, instruction: '  ' });
    expect(prompt).not.toMatch(/^Instruction:/m);
    expect(prompt).not.toBe(lessonPrompt(request));
  });
});

describe('the demo mock', () => {
  it('answers "simpler" with a lesson that starts "In simple terms"', () => {
    const answer = mockMarkdownLesson(regeneratePrompt({ ...request, instruction: 'simpler' }));
    expect(answer.startsWith(MOCK_SIMPLER_START)).toBe(true);
    expect(mockMarkdownLesson(lessonPrompt(request))).not.toContain(MOCK_SIMPLER_START);
  });

  it('answers "more examples" with more examples', () => {
    const answer = mockMarkdownLesson(
      regeneratePrompt({ ...request, instruction: 'more examples' }),
    );
    expect(answer).toContain('### More examples');
  });
});

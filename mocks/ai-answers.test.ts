import { describe, expect, it } from 'vitest';
import { clientMainTopic, mockToolInput, OUTLINE_TOOL } from './ai-answers';
import { readKnobs } from './knobs';

/**
 * The original client's outline prompt, as it builds it: no `Main topic:` line, the main topic
 * in the middle and as the key of the JSON it asks for, which it then reads the outline under.
 */
const CLIENT_PROMPT =
  'Generate a list of Strict 4 topics and any number sub topic for each topic for main title rust programming, everything in single line. Those 4 topics should Strictly include these topics :- ownership. Strictly Keep theory, youtube, image field empty. Generate in the form of JSON in this format {"rust programming": [{"title": "Topic Title","subtopics": [{"title": "Sub Topic Title","theory": "","youtube": "","image": "","done": false}]}]}';

describe("the demo AI's outline for an API client", () => {
  it('is keyed by the main topic the prompt names, not by its first words', () => {
    expect(clientMainTopic(CLIENT_PROMPT)).toBe('rust programming');
    const outline = mockToolInput(
      { system: '', tool: OUTLINE_TOOL, messages: [{ role: 'user', content: CLIENT_PROMPT }] },
      { ...readKnobs(), aiMalformed: 0 },
    ) as Record<string, { title: string }[]>;
    expect(Object.keys(outline)).toEqual(['rust programming']);
    expect(outline['rust programming']).toHaveLength(4);
  });

  it('still takes a `Main topic:` line first', () => {
    const outline = mockToolInput(
      {
        system: '',
        tool: OUTLINE_TOOL,
        messages: [{ role: 'user', content: 'Main topic: Astronomy\nNumber of topics: 5' }],
      },
      { ...readKnobs(), aiMalformed: 0 },
    ) as Record<string, unknown>;
    expect(Object.keys(outline)).toEqual(['astronomy']);
  });
});

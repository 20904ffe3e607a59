import { z } from 'zod';
import { requiredText } from '~/utils/validation.server';
import { json, operation, type ApiOperation } from './operation.server';
import { success } from './shapes.server';

const prompt = (max: number) => z.object({ prompt: requiredText(max) });

/** AI and media: each call counts against the hourly AI allowance. */
export const aiAndMediaOperations = {
  prompt: operation({
    method: 'POST',
    path: '/api/prompt',
    file: 'api.prompt.ts',
    summary: 'An outline from the AI',
    description: 'One call of the hourly AI allowance.',
    tag: 'AI and media',
    audience: 'member',
    errors: [502],
    limited: true,
    body: prompt(4000),
    responses: {
      200: json(
        'The outline',
        z.object({
          success,
          generatedText: z
            .string()
            .describe('JSON text of course content (every lesson without theory yet)'),
        }),
      ),
    },
  }),
  generate: operation({
    method: 'POST',
    path: '/api/generate',
    file: 'api.generate.ts',
    summary: "The AI's answer to a prompt",
    description: 'One call of the hourly AI allowance.',
    tag: 'AI and media',
    audience: 'member',
    errors: [502],
    limited: true,
    body: prompt(4000),
    responses: {
      200: json('The answer', z.object({ success, text: z.string().describe('Sanitized HTML') })),
    },
  }),
  image: operation({
    method: 'POST',
    path: '/api/image',
    file: 'api.image.ts',
    summary: 'A photo for a prompt',
    description: 'One call of the hourly AI allowance.',
    tag: 'AI and media',
    audience: 'member',
    errors: [502],
    limited: true,
    body: prompt(300),
    responses: {
      200: json(
        'The best photo (empty url when none)',
        z.object({
          success,
          url: z.string(),
          credit: z.object({ name: z.string(), url: z.string() }).nullable(),
        }),
      ),
    },
  }),
  yt: operation({
    method: 'POST',
    path: '/api/yt',
    file: 'api.yt.ts',
    summary: 'A YouTube video for a prompt',
    description: 'One call of the hourly AI allowance.',
    tag: 'AI and media',
    audience: 'member',
    errors: [502],
    limited: true,
    body: prompt(300),
    responses: {
      200: json(
        'An embeddable video',
        z.object({ success, url: z.string().describe('The video id (empty when none)') }),
      ),
    },
  }),
  transcript: operation({
    method: 'POST',
    path: '/api/transcript',
    file: 'api.transcript.ts',
    summary: "A video's captions",
    description:
      'One call of the hourly AI allowance. A 404 when the video has none: use a plain explanation prompt instead.',
    tag: 'AI and media',
    audience: 'member',
    errors: [404, 502],
    limited: true,
    body: z.object({ prompt: requiredText(20).describe('The video id') }),
    responses: {
      200: json(
        'The captions',
        z.object({
          success,
          url: z
            .array(z.object({ text: z.string(), offset: z.number(), duration: z.number() }))
            .describe('The list of caption items, each with its text'),
        }),
      ),
    },
  }),
} as const satisfies Record<string, ApiOperation>;

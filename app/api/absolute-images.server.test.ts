import { describe, expect, it } from 'vitest';
import { withAbsoluteImages } from './absolute-images.server';

describe('withAbsoluteImages', () => {
  it("makes the site's own image addresses absolute on the address the client called", () => {
    const request = new Request('http://api.example:4000/api/courses', {
      headers: { Host: 'api.example:4000' },
    });
    const content = JSON.stringify({
      rust: [
        {
          title: 'Say "image":"/x"',
          subtopics: [
            { title: 'a', image: '/images/demo/photo-1.png' },
            { title: 'b', image: 'https://images.unsplash.com/p.jpg' },
            { title: 'c', image: '' },
          ],
        },
      ],
    });
    const record = withAbsoluteImages({ photo: '/images/demo/photo-2.png', content }, request);
    expect(record.photo).toBe('http://api.example:4000/images/demo/photo-2.png');
    const lessons = (
      JSON.parse(record.content) as Record<
        string,
        { title: string; subtopics: { image: string }[] }[]
      >
    ).rust![0]!;
    expect(lessons.subtopics.map((lesson) => lesson.image)).toEqual([
      'http://api.example:4000/images/demo/photo-1.png',
      'https://images.unsplash.com/p.jpg',
      '',
    ]);
    expect(lessons.title).toBe('Say "image":"/x"');
  });
});

import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { VideoFacade } from './video-facade';

describe('VideoFacade', () => {
  it('shows a poster that links to the video, and no player until it is clicked', () => {
    const html = renderToString(
      <VideoFacade videoId="dQw4w9WgXcQ" title="Knots & Hitches" embeddable />,
    );
    expect(html).not.toContain('<iframe');
    expect(html).toContain('aria-label="Play video: Knots &amp; Hitches"');
    expect(html).toContain('href="https://www.youtube.com/watch?v=dQw4w9WgXcQ"');
    expect(html).toContain('https://i.ytimg.com/vi/dQw4w9WgXcQ/hqdefault.jpg');
  });

  it('names the video in a stand-in where it cannot be embedded', () => {
    const html = renderToString(
      <VideoFacade videoId="demo0000001" title="Bowline" embeddable={false} />,
    );
    expect(html).not.toContain('<iframe');
    expect(html).not.toContain('ytimg');
    expect(html).toContain('Video: <!-- -->Bowline');
  });
});

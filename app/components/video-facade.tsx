import { useState, type MouseEvent } from 'react';

/**
 * A lesson's YouTube video as a poster that loads the player only when the member asks for it:
 * the course view stays light (no player scripts until then), and without JavaScript the poster
 * is a link to the video on YouTube. Where the video cannot be embedded (demo mode's made-up
 * videos, or offline) a plain stand-in names it instead of showing a broken player.
 */
export function VideoFacade({
  videoId,
  title,
  embeddable,
}: {
  videoId: string;
  title: string;
  embeddable: boolean;
}) {
  const [playing, setPlaying] = useState(false);
  if (!embeddable)
    return (
      <div className="video video-standin" role="note" data-testid="lesson-video-standin">
        <p className="video-standin-title">Video: {title}</p>
        <p>This video cannot be played here (demo mode uses sample videos). The lesson follows.</p>
      </div>
    );
  if (!playing)
    return (
      <a
        className="video video-poster"
        href={`https://www.youtube.com/watch?v=${videoId}`}
        aria-label={`Play video: ${title}`}
        data-testid="lesson-video-poster"
        onClick={(event: MouseEvent) => {
          event.preventDefault();
          setPlaying(true);
        }}
      >
        <img src={`https://i.ytimg.com/vi/${videoId}/hqdefault.jpg`} alt="" loading="lazy" />
        <span className="video-play" aria-hidden="true" />
      </a>
    );
  return (
    <div className="video">
      <iframe
        src={`https://www.youtube-nocookie.com/embed/${videoId}?autoplay=1`}
        title={title}
        allow="accelerometer; autoplay; clipboard-write; encrypted-media; gyroscope; picture-in-picture"
        allowFullScreen
        referrerPolicy="strict-origin-when-cross-origin"
        data-testid="lesson-video"
      />
    </div>
  );
}

import type { LessonCredit } from '~/models/lessons.server';

/** A lesson's photo with the photographer's credit, as Unsplash's terms ask. */
export function LessonImage({
  src,
  alt,
  credit,
}: {
  src: string;
  alt: string;
  credit: LessonCredit | null;
}) {
  return (
    <figure className="lesson-image">
      <img src={src} alt={alt} data-testid="lesson-image" />
      {credit ? (
        <figcaption>
          Photo by{' '}
          <a href={credit.url} target="_blank" rel="noopener noreferrer">
            {credit.name}
          </a>{' '}
          on{' '}
          <a
            href="https://unsplash.com/?utm_source=coursegen&utm_medium=referral"
            target="_blank"
            rel="noopener noreferrer"
          >
            Unsplash
          </a>
        </figcaption>
      ) : null}
    </figure>
  );
}

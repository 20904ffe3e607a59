import { CertificateLink } from './certificate-link';

const RADIUS = 26;
const CIRCUMFERENCE = 2 * Math.PI * RADIUS;

/** The course's progress; at 100% it becomes the Certificate link. */
export function ProgressCircle({ progress, courseId }: { progress: number; courseId: string }) {
  if (progress >= 100) {
    return <CertificateLink courseId={courseId} className="button primary certificate-link" />;
  }
  return (
    <div
      className="progress-circle"
      role="progressbar"
      aria-label="Course progress"
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuenow={progress}
      data-testid="progress"
    >
      <svg viewBox="0 0 64 64" width="64" height="64" aria-hidden="true">
        <circle className="track" cx="32" cy="32" r={RADIUS} />
        <circle
          className="bar"
          cx="32"
          cy="32"
          r={RADIUS}
          strokeDasharray={CIRCUMFERENCE}
          strokeDashoffset={CIRCUMFERENCE * (1 - progress / 100)}
        />
      </svg>
      <span className="progress-text">{progress}%</span>
    </div>
  );
}

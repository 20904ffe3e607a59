import { Link } from '@remix-run/react';

export function certificatePath(courseId: string): string {
  return `/certificate/${encodeURIComponent(courseId)}`;
}

/**
 * The way to a course's certificate, for the /home course cards (finished
 * courses) and the course view's progress circle at 100%. Opening the page
 * finishes a course that is at 100% but not finished yet.
 */
export function CertificateLink({
  courseId,
  label = 'Certificate',
  className = 'button',
}: {
  courseId: string;
  /** 'Certificate' on cards; the course view may say 'Download Certificate'. */
  label?: string;
  className?: string;
}) {
  return (
    <Link to={certificatePath(courseId)} className={className}>
      {label}
    </Link>
  );
}

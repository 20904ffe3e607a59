/**
 * The course downloads (Markdown and a server-rendered PDF), on the course view, each /home card
 * and (with the member's notes in them) the notes view. Plain links with `download`: the files
 * come from resource routes, not pages.
 */
export function exportPath(courseId: string, format: 'md' | 'pdf', withNotes = false): string {
  return `/course/${encodeURIComponent(courseId)}/export.${format}${withNotes ? '?notes=1' : ''}`;
}

export function ExportLinks({
  courseId,
  title,
  withNotes = false,
}: {
  courseId: string;
  title: string;
  withNotes?: boolean;
}) {
  const suffix = withNotes ? ' with my notes' : '';
  return (
    <span className="export-links row">
      {(['md', 'pdf'] as const).map((format) => {
        const kind = format === 'md' ? 'Markdown' : 'PDF';
        return (
          <a
            key={format}
            href={exportPath(courseId, format, withNotes)}
            download
            className="button"
            aria-label={`Download ${kind} of ${title}${suffix}`}
          >
            Download {kind}
            {suffix}
          </a>
        );
      })}
    </span>
  );
}

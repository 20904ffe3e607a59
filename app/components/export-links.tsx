/**
 * The course downloads (Markdown and a server-rendered PDF), on the course view and each
 * /home card. Plain links with `download`: the files come from resource routes, not pages.
 */
export function exportPath(courseId: string, format: 'md' | 'pdf'): string {
  return `/course/${encodeURIComponent(courseId)}/export.${format}`;
}

export function ExportLinks({ courseId, title }: { courseId: string; title: string }) {
  return (
    <span className="export-links row">
      <a
        href={exportPath(courseId, 'md')}
        download
        className="button"
        aria-label={`Download Markdown of ${title}`}
      >
        Download Markdown
      </a>
      <a
        href={exportPath(courseId, 'pdf')}
        download
        className="button"
        aria-label={`Download PDF of ${title}`}
      >
        Download PDF
      </a>
    </span>
  );
}

import type { ReactNode } from 'react';
import type { CourseExportFormat } from '~/domain/plans';
import { SCORM_NOT_READY_MESSAGE, scormExportPath } from '~/domain/scorm';
import { showToast } from './toaster';

/**
 * The course downloads (Markdown and a server-rendered PDF) the member's plan includes, on the
 * course view, each /home card and (with the member's notes in them) the notes view. Plain links
 * with `download`: the files come from resource routes, not pages.
 */
function exportPath(courseId: string, format: 'md' | 'pdf', withNotes = false): string {
  return `/course/${encodeURIComponent(courseId)}/export.${format}${withNotes ? '?notes=1' : ''}`;
}

export function ExportLinks({
  courseId,
  title,
  formats,
  withNotes = false,
  children,
}: {
  courseId: string;
  title: string;
  /** What the plan includes (ADR 0055): a download it leaves out is not offered. */
  formats: readonly CourseExportFormat[];
  withNotes?: boolean;
  /** More downloads in the same group (the course view's SCORM package). */
  children?: ReactNode;
}) {
  const suffix = withNotes ? ' with my notes' : '';
  return (
    <span className="export-links row">
      {(['md', 'pdf'] as const)
        .filter((format) => formats.includes(format))
        .map((format) => {
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
      {children}
    </span>
  );
}

/**
 * "Download for an LMS (SCORM 1.2)" on the course view (ADR 34). A free member's click shows the
 * plans' refusal instead of a failed download (the server refuses it too); until every lesson and
 * quiz is written the button waits, as the server would answer 409.
 */
export function ScormExportLink({
  courseId,
  title,
  refusal,
  ready,
}: {
  courseId: string;
  title: string;
  /** Why the member's plan leaves it out; null when it includes it. */
  refusal: string | null;
  ready: boolean;
}) {
  const label = 'Download for an LMS (SCORM 1.2)';
  const allowed = refusal === null;
  if (allowed && !ready)
    return (
      <button
        type="button"
        className="button"
        disabled
        title={SCORM_NOT_READY_MESSAGE}
        aria-label={`${label} of ${title}: ${SCORM_NOT_READY_MESSAGE}`}
      >
        {label}
      </button>
    );
  return (
    <a
      href={scormExportPath(courseId)}
      download={allowed ? true : undefined}
      className="button"
      aria-label={`${label} of ${title}`}
      data-testid="scorm-export"
      onClick={(event) => {
        if (allowed) return;
        event.preventDefault();
        showToast('error', refusal);
      }}
    >
      {label}
    </a>
  );
}

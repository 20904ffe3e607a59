import { useFetcher } from '@remix-run/react';
import { useEffect } from 'react';
import type { ShareState } from '~/services/course-sharing.server';
import { showToast } from './toaster';

interface ShareAnswer {
  success: boolean;
  message?: string;
  url?: string | null;
}

/**
 * The owner's sharing controls on the course view: share a finished course, copy its link,
 * stop sharing at once. The page's loader runs again after each change and shows the new state.
 */
export function ShareCourse({ courseId, share }: { courseId: string; share: ShareState }) {
  const fetcher = useFetcher<ShareAnswer>();
  const busy = fetcher.state !== 'idle';
  useEffect(() => {
    if (fetcher.state === 'idle' && fetcher.data && !fetcher.data.success)
      showToast('error', fetcher.data.message ?? 'Something went wrong');
  }, [fetcher.state, fetcher.data]);

  const copyLink = async (url: string) => {
    try {
      await navigator.clipboard.writeText(url);
      showToast('success', 'Link copied');
    } catch {
      showToast('info', 'Select the link and copy it');
    }
  };

  return (
    <details className="share-course" data-testid="share-course">
      <summary>Share</summary>
      <fetcher.Form method="post" action={`/course/${courseId}/share`}>
        {share.url ? (
          <>
            <label htmlFor="share-link">Anyone with this link can read the course:</label>
            <input
              id="share-link"
              readOnly
              value={share.url}
              data-testid="share-link"
              onFocus={(event) => event.currentTarget.select()}
            />
            <button type="button" className="button" onClick={() => void copyLink(share.url!)}>
              Copy link
            </button>
            <button type="submit" name="intent" value="revoke" className="button" disabled={busy}>
              Stop sharing
            </button>
          </>
        ) : share.shareable ? (
          <>
            <p>Make a public link anyone can read: the lessons, not your progress or notes.</p>
            <button type="submit" name="intent" value="share" className="button" disabled={busy}>
              Create link
            </button>
          </>
        ) : (
          <p className="muted">You can share this course once every lesson is written.</p>
        )}
      </fetcher.Form>
    </details>
  );
}

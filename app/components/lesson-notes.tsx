import { useEffect, useId, useRef, useState } from 'react';
import { MAX_NOTE_CHARS, NOTE_SAVE_DEBOUNCE_MS } from '~/domain/notes';
import { NoteSaver, type NoteState, type SendOutcome } from '~/browser/note-saver';

async function sendNote(
  lessonId: number,
  body: string,
  { keepalive }: { keepalive: boolean },
): Promise<SendOutcome> {
  const response = await fetch(`/notes/${lessonId}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify({ body }),
    keepalive,
  });
  if (response.ok) return { ok: true };
  const answer = (await response.json().catch(() => ({}))) as { message?: string };
  // A refusal the member must act on is shown, not retried; the rest pass.
  const retry = response.status >= 500 || response.status === 429 || response.status === 408;
  const gone = response.status === 404 || response.status === 401;
  return { ok: false, retry, gone, message: retry ? undefined : answer.message };
}

const STATE_TEXT: Record<NoteState['kind'], string> = {
  saved: 'Saved',
  saving: 'Saving…',
  unsaved: 'Not saved',
};

/**
 * The member's notes on this lesson (plain text or Markdown): saved as they type, kept in the
 * browser until the server has them, and sent once more when the page goes away.
 */
export function LessonNotes({ lessonId, initial }: { lessonId: number; initial: string }) {
  const id = useId();
  const [text, setText] = useState(initial);
  const [state, setState] = useState<NoteState>({ kind: 'saved' });
  const saver = useRef<NoteSaver | null>(null);

  useEffect(() => {
    const current = new NoteSaver(
      {
        lessonId,
        send: (body, options) => sendNote(lessonId, body, options),
        storage: typeof localStorage === 'undefined' ? null : localStorage,
        onState: setState,
        debounceMs: NOTE_SAVE_DEBOUNCE_MS,
      },
      initial,
    );
    saver.current = current;
    setText(current.start());
    const online = () => current.online();
    const leave = () => current.leave();
    window.addEventListener('online', online);
    window.addEventListener('pagehide', leave);
    return () => {
      window.removeEventListener('online', online);
      window.removeEventListener('pagehide', leave);
      // Another lesson opened in the page: what is not saved yet goes now.
      current.leave();
      current.stop();
    };
    // `initial` is the server's text when this lesson's box opened; later loader data is ours.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [lessonId]);

  const over = text.length > MAX_NOTE_CHARS;
  return (
    <section className="lesson-notes" aria-labelledby={`${id}-heading`} data-testid="lesson-notes">
      <div className="lesson-notes-head">
        <h3 id={`${id}-heading`}>
          <label htmlFor={`${id}-text`}>My notes</label>
        </h3>
        <span
          className="notes-state"
          role="status"
          data-state={state.kind}
          data-testid="notes-state"
        >
          {STATE_TEXT[state.kind]}
        </span>
      </div>
      <textarea
        id={`${id}-text`}
        name="notes"
        rows={6}
        value={text}
        placeholder="Write your notes here (plain text or Markdown)."
        aria-describedby={`${id}-help`}
        onChange={(event) => {
          setText(event.target.value);
          saver.current?.change(event.target.value);
        }}
      />
      <p id={`${id}-help`} className="muted notes-help" data-over={over}>
        {state.kind === 'unsaved' && state.message ? (
          <span className="error-text" role="alert">
            {state.message}{' '}
          </span>
        ) : state.kind === 'unsaved' ? (
          'Your text is kept in this browser and will be saved when the connection is back. '
        ) : null}
        {text.length.toLocaleString('en')} / {MAX_NOTE_CHARS.toLocaleString('en')}
      </p>
    </section>
  );
}

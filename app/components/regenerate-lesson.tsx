import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import {
  MAX_INSTRUCTION_CHARS,
  SUGGESTED_INSTRUCTIONS,
  type RegenerationStatus,
} from '~/domain/notes';
import { useLongPoll } from '~/browser/use-long-poll';

const FAILED = 'The request did not reach the server. Please try again.';

async function post(lessonId: number, fields: Record<string, string>) {
  try {
    const response = await fetch(`/regenerate/${lessonId}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(fields),
    });
    const body = (await response.json().catch(() => ({}))) as Partial<RegenerationStatus> & {
      message?: string;
    };
    return response.ok
      ? { ok: true as const, status: body as RegenerationStatus }
      : { ok: false as const, message: body.message ?? FAILED };
  } catch {
    return { ok: false as const, message: FAILED };
  }
}

/** Follows a running re-write (the long-poll) and says when the new text is stored. */
function RegenerationWatcher({
  initial,
  onFinished,
}: {
  initial: RegenerationStatus;
  onFinished: () => void;
}) {
  const polled = useLongPoll(
    `/regenerate/${initial.lessonId}`,
    initial,
    (s) => s.state !== 'running',
  );
  const told = useRef(false);
  useEffect(() => {
    if (polled.state === 'running' || told.current) return;
    told.current = true;
    onFinished();
  }, [polled.state, onFinished]);
  return polled.attempts > 0 ? (
    <span className="muted"> The AI service failed {polled.attempts} time(s); trying again…</span>
  ) : null;
}

/**
 * "Regenerate" under a lesson: writes it again, optionally as the member asks ('simpler', 'more
 * examples' or their own words). The current text stays until the new one is ready; then the
 * page reloads its data and the previous version can be restored once.
 */
export function RegenerateLesson({
  status: initial,
  onChanged,
}: {
  status: RegenerationStatus;
  onChanged: () => void;
}) {
  const id = useId();
  const [status, setStatus] = useState(initial);
  const [instruction, setInstruction] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<string | null>(null);
  const running = status.state === 'running';

  async function send(fields: Record<string, string>) {
    setBusy(true);
    setMessage(null);
    const result = await post(status.lessonId, fields);
    setBusy(false);
    if (!result.ok) return setMessage(result.message);
    setStatus(result.status);
    if (result.status.state !== 'running') onChanged();
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void send({ intent: 'regenerate', instruction: instruction.trim() });
  }

  return (
    <section
      className="regenerate"
      aria-labelledby={`${id}-heading`}
      data-testid="regenerate"
      data-state={status.state}
    >
      <h3 id={`${id}-heading`}>Regenerate this lesson</h3>
      {running ? (
        <p role="status" data-testid="regenerate-running">
          Re-writing this lesson{status.instruction ? ` (${status.instruction})` : ''}… The current
          text stays until the new one is ready.
          <RegenerationWatcher initial={status} onFinished={onChanged} />
        </p>
      ) : (
        <form className="regenerate-form" onSubmit={submit}>
          <div className="regenerate-suggestions" role="group" aria-label="Quick instructions">
            {SUGGESTED_INSTRUCTIONS.map((suggestion) => (
              <button
                key={suggestion}
                type="button"
                className="button"
                disabled={busy}
                onClick={() => void send({ intent: 'regenerate', instruction: suggestion })}
              >
                {suggestion[0]!.toUpperCase() + suggestion.slice(1)}
              </button>
            ))}
          </div>
          <label htmlFor={`${id}-instruction`}>Instruction (optional)</label>
          <div className="row">
            <input
              id={`${id}-instruction`}
              name="instruction"
              type="text"
              maxLength={MAX_INSTRUCTION_CHARS}
              value={instruction}
              placeholder="e.g. explain it with a cooking analogy"
              onChange={(event) => setInstruction(event.target.value)}
            />
            <button type="submit" className="button primary" disabled={busy}>
              Regenerate
            </button>
          </div>
          <p className="muted">Uses one request of your hourly AI allowance.</p>
        </form>
      )}
      {status.canRestore && !running ? (
        <button
          type="button"
          className="link-button"
          disabled={busy}
          onClick={() => void send({ intent: 'restore' })}
        >
          Restore the previous version
        </button>
      ) : null}
      {message ? (
        <p className="error-text" role="alert" data-testid="regenerate-error">
          {message}
        </p>
      ) : null}
    </section>
  );
}

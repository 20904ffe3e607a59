import { useEffect, useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { MAX_QUESTION_LENGTH, TUTOR_FAILED_MESSAGE } from '~/domain/tutor';
import { readEvents } from '~/browser/read-events';

type Entry =
  { id: number; role: 'user'; text: string } | { id: number; role: 'assistant'; html: string };
type Outcome = { ok: true; entries: Entry[] } | { ok: false; message: string };

/**
 * "Ask the tutor" beside a lesson: the member's conversation about this lesson (kept on the
 * server, so it is there after a reload), and a question box. The answer is shown as text while
 * it streams in, then replaced by the sanitized HTML the server stored. A failed answer says so
 * and offers to ask again; nothing of it was kept.
 */
export function TutorPanel({ lessonId }: { lessonId: number }) {
  const headingId = useId();
  const [entries, setEntries] = useState<Entry[]>([]);
  const [question, setQuestion] = useState('');
  const [answering, setAnswering] = useState<{ question: string; text: string } | null>(null);
  const [failure, setFailure] = useState<{ question: string; message: string } | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    fetch(`/tutor/${lessonId}`, {
      headers: { Accept: 'application/json' },
      signal: controller.signal,
    })
      .then((response) => (response.ok ? response.json() : { messages: [] }))
      .then((body: { messages: Entry[] }) => setEntries(body.messages))
      .catch(() => undefined);
    return () => controller.abort();
  }, [lessonId]);

  async function ask(text: string) {
    setFailure(null);
    setAnswering({ question: text, text: '' });
    let outcome: Outcome = { ok: false, message: TUTOR_FAILED_MESSAGE };
    try {
      const response = await fetch(`/tutor/${lessonId}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
        body: JSON.stringify({ question: text }),
      });
      if (!response.ok) {
        const body = (await response.json().catch(() => ({}))) as { message?: string };
        outcome = { ok: false, message: body.message ?? TUTOR_FAILED_MESSAGE };
      } else {
        await readEvents(response, (event, data) => {
          if (event === 'append')
            setAnswering((so) => so && { ...so, text: so.text + (data as string) });
          else if (event === 'done') {
            const answer = data as { id: number; html: string };
            outcome = {
              ok: true,
              entries: [
                { id: answer.id - 1, role: 'user', text },
                { id: answer.id, role: 'assistant', html: answer.html },
              ],
            };
          } else if (event === 'error')
            outcome = { ok: false, message: (data as { message: string }).message };
        });
      }
    } catch {
      // The connection broke: nothing was shown as an answer.
    }
    const result = outcome as Outcome;
    if (result.ok) {
      setEntries((so) => [...so, ...result.entries]);
      setQuestion((current) => (current === text ? '' : current));
    } else {
      setFailure({ question: text, message: result.message });
      setQuestion((current) => current || text);
    }
    setAnswering(null);
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const text = question.trim();
    if (answering || !text) return;
    setQuestion('');
    void ask(text);
  }

  /** Enter sends, Shift+Enter starts a new line, as in every chat (not while an IME composes). */
  function sendOnEnter(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    event.currentTarget.form?.requestSubmit();
  }

  return (
    <aside className="tutor" aria-labelledby={headingId} data-testid="tutor">
      <h2 id={headingId}>Ask the tutor</h2>
      <p className="muted">Questions about this lesson and its course.</p>
      <ol
        className="tutor-conversation"
        aria-label="Conversation with the tutor"
        data-testid="tutor-conversation"
      >
        {entries.map((entry) =>
          entry.role === 'user' ? (
            <li key={entry.id} className="tutor-question">
              {entry.text}
            </li>
          ) : (
            <li
              key={entry.id}
              className="tutor-answer"
              data-testid="tutor-answer"
              // Sanitized on the server when stored.
              dangerouslySetInnerHTML={{ __html: entry.html }}
            />
          ),
        )}
        {answering ? (
          <>
            <li className="tutor-question">{answering.question}</li>
            <li
              className="tutor-answer tutor-streaming"
              data-testid="tutor-streaming"
              aria-busy="true"
            >
              {answering.text || 'Thinking…'}
            </li>
          </>
        ) : null}
      </ol>
      {failure ? (
        <div className="tutor-failure" role="alert" data-testid="tutor-failure">
          <p>{failure.message}</p>
          <button
            type="button"
            onClick={() => void ask(failure.question)}
            disabled={Boolean(answering)}
          >
            Ask again
          </button>
        </div>
      ) : null}
      <form className="tutor-form" onSubmit={submit}>
        <label htmlFor={`${headingId}-question`}>Your question</label>
        <textarea
          id={`${headingId}-question`}
          name="question"
          rows={3}
          value={question}
          onChange={(event) => setQuestion(event.target.value)}
          onKeyDown={sendOnEnter}
          aria-describedby={`${headingId}-count`}
        />
        <div className="row">
          <span
            id={`${headingId}-count`}
            className="muted"
            data-over={question.length > MAX_QUESTION_LENGTH}
          >
            {question.length} / {MAX_QUESTION_LENGTH}
          </span>
          <button
            type="submit"
            className="button"
            disabled={Boolean(answering) || !question.trim()}
          >
            Ask
          </button>
        </div>
      </form>
    </aside>
  );
}

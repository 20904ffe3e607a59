import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type KeyboardEvent,
  type MouseEvent,
} from 'react';
import { toast } from 'react-toastify';
import {
  applyOutlineOp,
  controlAfterOp,
  lessonField,
  outlineControlId,
  outlineEditRefusal,
  parseOutlineOp,
  renameInOutline,
  topicField,
  type TopicLimit,
} from '~/domain/outline-edit';
import { outlineToSpec, type Outline } from '~/domain/outline';

/**
 * The outline on /topics, editable before Generate Course (ADR 0032). Every control is a real
 * button of the page's form, so a keyboard (and a browser without JavaScript, through the
 * server) works them; with JavaScript each change shows at once, is checked by the plan's rule
 * the server applies, and is saved through `POST /api/outline/:id` as the member goes (titles
 * shortly after the last key, one save at a time). The typed titles are also the form's fields,
 * so Generate Course sends the outline exactly as shown.
 */
type SaveState = { kind: 'saved' } | { kind: 'saving' } | { kind: 'failed'; message: string };

const SAVE_AFTER_TYPING_MS = 600;

export function OutlineEditor({
  outlineId,
  topicLimit,
  initial,
  covers,
  revision,
  locked,
  language,
  refusal,
}: {
  outlineId: string;
  topicLimit: TopicLimit;
  initial: Outline;
  /** What part of the member's material a topic teaches ("Pages 3–5"), if it is from material. */
  covers?: (topic: Outline[number]) => string | null;
  /** The server's count of saved edits: a new one from elsewhere (a rewrite) replaces the page's. */
  revision: number;
  /** A rewrite is under way: nothing may change meanwhile. */
  locked: boolean;
  language: Record<string, string | undefined>;
  /** Why the server refused the change this page answers (a button pressed without JavaScript). */
  refusal?: string;
}) {
  const [topics, setTopics] = useState(initial);
  const [saveState, setSaveState] = useState<SaveState>(
    refusal ? { kind: 'failed', message: refusal } : { kind: 'saved' },
  );
  const saved = useRef(initial);
  const inFlight = useRef(false);
  const queued = useRef<Outline | null>(null);
  const typingTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  /** The control that takes focus once the change shows (controlAfterOp). */
  const focusAfter = useRef<string | null>(null);
  const knownRevision = useRef(revision);

  // An outline written again elsewhere (a rewrite) replaces this one, unless edits are unsaved.
  useEffect(() => {
    if (revision === knownRevision.current) return;
    knownRevision.current = revision;
    if (inFlight.current || queued.current || typingTimer.current) return;
    saved.current = initial;
    setTopics(initial);
  }, [revision, initial]);

  useEffect(() => {
    const control = focusAfter.current;
    focusAfter.current = null;
    if (control) document.getElementById(outlineControlId(control))?.focus();
  }, [topics]);

  // Titles typed in the moment before the page goes away are sent on their way out (keepalive),
  // so a reload right after typing loses nothing.
  const latest = useRef(topics);
  latest.current = topics;
  useEffect(() => {
    const flush = () => {
      if (!typingTimer.current) return;
      clearTimeout(typingTimer.current);
      typingTimer.current = null;
      if (outlineEditRefusal(latest.current, topicLimit)) return;
      void fetch(`/api/outline/${outlineId}`, {
        method: 'POST',
        keepalive: true,
        headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
        body: JSON.stringify({ topics: outlineToSpec(latest.current) }),
      });
    };
    window.addEventListener('pagehide', flush);
    return () => window.removeEventListener('pagehide', flush);
  }, [outlineId, topicLimit]);

  const send = useCallback(
    async (outline: Outline) => {
      if (inFlight.current) {
        queued.current = outline;
        return;
      }
      inFlight.current = true;
      setSaveState({ kind: 'saving' });
      try {
        const response = await fetch(`/api/outline/${outlineId}`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
          body: JSON.stringify({ topics: outlineToSpec(outline) }),
        });
        const answer = (await response.json().catch(() => ({}))) as {
          message?: string;
          outline?: { revision: number };
        };
        if (!response.ok) {
          const message = answer.message ?? 'The outline could not be saved';
          toast.error(message);
          setSaveState({ kind: 'failed', message });
          // What the server holds is what Generate Course would write: show it again.
          if (!queued.current) setTopics(saved.current);
        } else {
          saved.current = outline;
          if (answer.outline) knownRevision.current = answer.outline.revision;
          if (!queued.current) setSaveState({ kind: 'saved' });
        }
      } catch {
        setSaveState({ kind: 'failed', message: 'Not saved: the connection dropped' });
      } finally {
        inFlight.current = false;
        const next = queued.current;
        queued.current = null;
        if (next) void send(next);
      }
    },
    [outlineId],
  );

  const saveNow = useCallback(
    (outline: Outline) => {
      if (typingTimer.current) clearTimeout(typingTimer.current);
      typingTimer.current = null;
      void send(outline);
    },
    [send],
  );

  function onOp(event: MouseEvent<HTMLButtonElement>) {
    event.preventDefault();
    const op = parseOutlineOp(event.currentTarget.value);
    if (!op) return;
    if (op === 'save') {
      event.currentTarget.closest('details')?.removeAttribute('open');
      saveNow(topics);
      return;
    }
    const next = applyOutlineOp(topics, op);
    const refusal = outlineEditRefusal(next, topicLimit);
    if (refusal) {
      toast.error(refusal);
      return;
    }
    // Keyboard users stay on the item they moved, or go to the one they added.
    focusAfter.current = controlAfterOp(next, op);
    setTopics(next);
    saveNow(next);
  }

  function rename(topic: number, lesson: number | undefined, title: string) {
    const next = renameInOutline(topics, topic, lesson, title);
    setTopics(next);
    setSaveState({ kind: 'saving' });
    if (typingTimer.current) clearTimeout(typingTimer.current);
    typingTimer.current = setTimeout(() => {
      typingTimer.current = null;
      const refusal = outlineEditRefusal(next, topicLimit);
      if (refusal) setSaveState({ kind: 'failed', message: refusal });
      else void send(next);
    }, SAVE_AFTER_TYPING_MS);
  }

  /** Enter in a title closes it and saves, instead of submitting the form's first button. */
  function finishRename(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    event.currentTarget.closest('details')?.removeAttribute('open');
    const refusal = outlineEditRefusal(topics, topicLimit);
    if (refusal) toast.error(refusal);
    else saveNow(topics);
  }

  const button = (
    value: string,
    label: string,
    text: string,
    control: string,
    disabled = false,
  ) => (
    <button
      type="submit"
      name="op"
      value={value}
      className="button small"
      aria-label={label}
      title={label}
      id={outlineControlId(control)}
      disabled={disabled || locked}
      onClick={onOp}
    >
      {text}
    </button>
  );

  return (
    <fieldset className="outline-editor" disabled={locked}>
      <legend className="visually-hidden">The outline</legend>
      <ol className="outline" data-testid="outline" {...language}>
        {topics.map((topic, t) => (
          <li key={t} className="outline-topic card" data-testid="outline-topic">
            <h2>{topic.title}</h2>
            {coverageNote(covers?.(topic) ?? null)}
            <div className="outline-controls">
              <details className="rename">
                <summary
                  id={outlineControlId(`topic-${t}-rename`)}
                  aria-label={`Rename topic “${topic.title}”`}
                >
                  Rename
                </summary>
                <label>
                  Topic {t + 1} title
                  <input
                    name={topicField(t)}
                    value={topic.title}
                    maxLength={200}
                    onChange={(e) => rename(t, undefined, e.target.value)}
                    onKeyDown={finishRename}
                  />
                </label>
                {button('save', 'Save the titles', 'Save', `topic-${t}-save`)}
              </details>
              {button(
                `up-topic:${t}`,
                `Move topic “${topic.title}” up`,
                '↑',
                `topic-${t}-up`,
                t === 0,
              )}
              {button(
                `down-topic:${t}`,
                `Move topic “${topic.title}” down`,
                '↓',
                `topic-${t}-down`,
                t === topics.length - 1,
              )}
              {button(
                `remove-topic:${t}`,
                `Remove topic “${topic.title}”`,
                '✕',
                `topic-${t}-remove`,
              )}
            </div>
            <ul>
              {topic.lessons.map((lesson, l) => (
                <li key={l} className="outline-lesson" data-testid="outline-lesson">
                  <span className="outline-lesson-title">{lesson.title}</span>
                  <span className="outline-controls">
                    <details className="rename">
                      <summary
                        id={outlineControlId(`lesson-${t}-${l}-rename`)}
                        aria-label={`Rename lesson “${lesson.title}”`}
                      >
                        Rename
                      </summary>
                      <label>
                        Topic {t + 1}, lesson {l + 1} title
                        <input
                          name={lessonField(t, l)}
                          value={lesson.title}
                          maxLength={200}
                          onChange={(e) => rename(t, l, e.target.value)}
                          onKeyDown={finishRename}
                        />
                      </label>
                      {button('save', 'Save the titles', 'Save', `lesson-${t}-${l}-save`)}
                    </details>
                    {button(
                      `up-lesson:${t}:${l}`,
                      `Move lesson “${lesson.title}” up`,
                      '↑',
                      `lesson-${t}-${l}-up`,
                      l === 0,
                    )}
                    {button(
                      `down-lesson:${t}:${l}`,
                      `Move lesson “${lesson.title}” down`,
                      '↓',
                      `lesson-${t}-${l}-down`,
                      l === topic.lessons.length - 1,
                    )}
                    {button(
                      `remove-lesson:${t}:${l}`,
                      `Remove lesson “${lesson.title}”`,
                      '✕',
                      `lesson-${t}-${l}-remove`,
                    )}
                  </span>
                </li>
              ))}
            </ul>
            {button(
              `add-lesson:${t}`,
              // The accessible name starts with the visible text, so "Add lesson" said aloud
              // (voice control) finds it (WCAG 2.5.3).
              `Add lesson to “${topic.title}”`,
              'Add lesson',
              `topic-${t}-add`,
            )}
          </li>
        ))}
      </ol>
      <div className="outline-footer">
        {button('add-topic', 'Add topic', 'Add topic', 'add-topic')}
        <p className="muted outline-save" role="status" data-testid="outline-save">
          {saveState.kind === 'saving'
            ? 'Saving…'
            : saveState.kind === 'failed'
              ? `Not saved: ${saveState.message}`
              : 'All changes saved'}
        </p>
      </div>
    </fieldset>
  );
}

/** "Covers pages 3–5 of your material", under a topic from the member's material. */
function coverageNote(covers: string | null) {
  if (!covers) return null;
  return (
    <p className="muted outline-covers" data-testid="outline-covers">
      Covers {covers[0]!.toLowerCase()}
      {covers.slice(1)} of your material
    </p>
  );
}

import { useEffect, useRef, useState } from 'react';
import type { GenerationState as State } from '../../db/schema';
import { GenerationState } from './generation-state';

/**
 * A lesson still being written: its text as the model writes it (plain text: the final lesson,
 * sanitized on the server, replaces it), or the generation state until the first words come.
 * Follows `/status/lesson/:id` with an EventSource, which reconnects by itself after a network
 * or server restart and starts again from the draft kept in Redis. `onWritten` is called once
 * the lesson is stored. Without the stream (refused, or no EventSource) the page's status
 * polling still brings the lesson in.
 */
export function LessonStream({
  lessonId,
  state,
  attempts,
  jobServiceDown,
  onWritten,
}: {
  lessonId: number;
  state: State;
  attempts: number;
  jobServiceDown?: boolean;
  onWritten: () => void;
}) {
  const [text, setText] = useState('');
  const written = useRef(onWritten);
  written.current = onWritten;

  useEffect(() => {
    setText('');
    if (typeof EventSource === 'undefined') return;
    const source = new EventSource(`/status/lesson/${lessonId}`);
    const read = (event: Event) => JSON.parse((event as MessageEvent<string>).data) as string;
    source.addEventListener('reset', (event) => setText(read(event)));
    source.addEventListener('append', (event) => setText((so) => so + read(event)));
    source.addEventListener('done', () => {
      source.close();
      written.current();
    });
    return () => source.close();
  }, [lessonId]);

  if (!text.trim())
    return (
      <GenerationState
        state={state}
        attempts={attempts}
        what="this lesson"
        testId="lesson-status"
        jobServiceDown={jobServiceDown}
      />
    );
  return (
    <div className="lesson-draft" data-testid="lesson-draft" aria-busy="true">
      <p className="muted" role="status">
        Writing this lesson…
      </p>
      <div className="lesson-draft-text">{text}</div>
    </div>
  );
}

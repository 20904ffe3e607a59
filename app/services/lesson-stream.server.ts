import { getLesson, type Lesson } from '~/models/lessons.server';
import { nextChange } from '~/utils/changes.server';
import { followDraft } from '~/utils/drafts.server';
import { log } from '~/utils/logger.server';
import { SAFETY_CHECK_MS } from '~/utils/long-poll.server';
import {
  EVENT_STREAM_HEADERS,
  eventStreamResponse,
  sseFrame,
  type EventStream,
} from '~/utils/event-stream.server';
import { apiError } from '~/utils/responses.server';

/**
 * A lesson being written, as server-sent events for the course view (ADR 17): `reset` (the whole
 * draft so far, as text), `append` (the next piece), and `done` once the lesson is stored, when
 * the page loads the final, sanitized lesson in its place. The draft comes from Redis, so any web
 * process can serve it; the stored lesson is checked at each change of the course (and every few
 * seconds), so a lost message only delays the switch. A stream ends after STREAM_LIFETIME_MS and
 * the browser's EventSource opens a new one, starting from the draft again.
 */
export const MAX_STREAMS_PER_MEMBER = 4;
const STREAM_LIFETIME_MS = 5 * 60_000;
export const TOO_MANY_STREAMS_MESSAGE =
  'Too many lessons are open at once. Close a tab and try again.';

const openStreams = new Map<string, number>();

const isWritten = async (lessonId: number) => Boolean((await getLesson(lessonId))?.theory);

export function lessonDraftStream(request: Request, lesson: Lesson, memberId: string): Response {
  if (lesson.theory) return new Response(sseFrame('done', {}), { headers: EVENT_STREAM_HEADERS });
  const held = openStreams.get(memberId) ?? 0;
  if (held >= MAX_STREAMS_PER_MEMBER)
    return apiError(429, TOO_MANY_STREAMS_MESSAGE, {
      headers: { 'Retry-After': '5', 'Cache-Control': 'no-store' },
    });
  openStreams.set(memberId, held + 1);
  const release = () => {
    const now = (openStreams.get(memberId) ?? 1) - 1;
    if (now > 0) openStreams.set(memberId, now);
    else openStreams.delete(memberId);
  };
  return eventStreamResponse(request, { lifetimeMs: STREAM_LIFETIME_MS, onClose: release }, (out) =>
    followLesson(lesson, out),
  );
}

function followLesson(lesson: Lesson, out: EventStream) {
  const finishIfWritten = async () => {
    let written = false;
    try {
      written = await isWritten(lesson.id);
    } catch (error) {
      // A busy database: the next check decides.
      log.warn('lesson_stream.read_failed', { lessonId: lesson.id, error });
    }
    if (written) {
      out.send('done', {});
      out.close();
    }
    return written;
  };
  // The draft's events are sent in the order they came, also while a check of the stored lesson
  // (a database read) is under way: a new try's text never lands before the last one's reset.
  let sending = Promise.resolve();
  void followDraft(`lesson:${lesson.id}`, out.signal, (event) => {
    sending = sending.then(async () => {
      if (event.type !== 'done') return out.send(event.type, event.text);
      // The try ended: stored (the page swaps in the lesson) or failed (the next try starts over).
      if (!(await finishIfWritten())) out.send('reset', '');
    });
  });
  void (async () => {
    while (!out.signal.aborted) {
      if (await finishIfWritten()) return;
      await nextChange(`course:${lesson.courseId}`, SAFETY_CHECK_MS, out.signal);
    }
  })();
}

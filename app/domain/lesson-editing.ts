import { MAX_LESSON_TEXT_CHARS } from './content-limits';

/** Editing a written lesson and its history (issue 39, ADR 0059): rules the page and the server share. */

/** The kept versions of one lesson; past this the oldest go (bounded storage, ADR 0059). */
export const MAX_LESSON_VERSIONS = 50;
/** A lesson's title, as /api/update holds it. */
export const MAX_LESSON_TITLE_CHARS = 200;
/** The Markdown an author may type: the same bound /api/update puts on a lesson's text. */
export const MAX_LESSON_MARKDOWN_CHARS = MAX_LESSON_TEXT_CHARS;

export const LESSON_BUSY_MESSAGE =
  'This lesson is being written or re-written right now. You can edit it once the new text is ready.';
export const LESSON_TITLE_MESSAGE = `Please give the lesson a title of at most ${MAX_LESSON_TITLE_CHARS} characters.`;
export const LESSON_EMPTY_MESSAGE = 'The lesson needs some text.';
export const LESSON_MARKDOWN_TOO_LONG_MESSAGE = `A lesson's text can be at most ${MAX_LESSON_MARKDOWN_CHARS.toLocaleString('en-US')} characters`;
export const NO_SUCH_VERSION_MESSAGE = 'That version of the lesson is not kept any more.';

export type LessonVersionKind = 'generated' | 'regenerated' | 'edited' | 'restored';

/** One kept version as the history lists it. */
export interface LessonVersionSummary {
  id: number;
  kind: LessonVersionKind;
  instruction: string;
  restoredFrom: number | null;
  title: string;
  createdAt: string;
  current: boolean;
}

/** How a version came to be, in words. */
export function describeVersion(
  version: Pick<LessonVersionSummary, 'kind' | 'instruction' | 'restoredFrom'>,
): string {
  switch (version.kind) {
    case 'generated':
      return 'Written by the AI';
    case 'regenerated':
      return version.instruction
        ? `Re-written by the AI (${version.instruction})`
        : 'Re-written by the AI';
    case 'edited':
      return 'Edited by you';
    case 'restored':
      return 'Restored from an earlier version';
  }
}

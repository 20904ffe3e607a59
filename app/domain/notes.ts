/** Lesson notes (issue 13): rules the notes box and the server both read. */
export const MAX_NOTE_CHARS = 20_000;
export const NOTE_TOO_LONG_MESSAGE = `Notes are limited to ${MAX_NOTE_CHARS.toLocaleString('en')} characters per lesson.`;
export const NOTE_NOT_TEXT_MESSAGE = 'The note must be text.';
/** How long the box waits after the last key before saving. */
export const NOTE_SAVE_DEBOUNCE_MS = 800;

/** Regenerating a lesson: the member's instruction is one short line. */
export const MAX_INSTRUCTION_CHARS = 300;
export const INSTRUCTION_TOO_LONG_MESSAGE = `Please keep the instruction under ${MAX_INSTRUCTION_CHARS} characters.`;
export const REGENERATION_RUNNING_MESSAGE =
  'This lesson is already being re-written. Please wait for the new version.';
export const LESSON_NOT_WRITTEN_MESSAGE =
  'This lesson is still being written. You can regenerate it once it is ready.';
export const NOTHING_TO_RESTORE_MESSAGE = 'There is no previous version of this lesson to restore.';
export const REGENERATE_ALLOWANCE_MESSAGE =
  'You have used your AI allowance for this hour. Please try regenerating later.';
/** The instructions offered as buttons; the member may also write their own. */
export const SUGGESTED_INSTRUCTIONS = ['simpler', 'more examples'] as const;

/** Where a lesson's "Regenerate" stands, as the server answers it and the panel shows it. */
export interface RegenerationStatus {
  lessonId: number;
  state: 'idle' | 'running' | 'done';
  instruction: string;
  /** Failed tries of the running request (the job retries without limit). */
  attempts: number;
  canRestore: boolean;
  /** Changes whenever anything above does (the long-poll compares it). */
  version: string;
}

/**
 * The notes box's saving, apart from React so its rules can be tested: the text is saved
 * `debounceMs` after the last change, one save at a time (the last write wins on the server, so
 * saves must not overtake each other); a save that fails for a passing reason (network, 5xx,
 * 429) is retried with a capped backoff and at once when the browser is back online; the text
 * not yet saved waits in `storage` (localStorage) and is sent again by the next page that opens
 * the lesson. Refusals the member must act on (too long) are shown and not retried.
 */
export type NoteState =
  { kind: 'saved' } | { kind: 'saving' } | { kind: 'unsaved'; message?: string };

export type SendOutcome =
  | { ok: true }
  /** `gone`: the lesson is not the member's (deleted, or another account): drop the local copy. */
  | { ok: false; retry: boolean; message?: string; gone?: boolean };

interface NoteStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface NoteSaverOptions {
  lessonId: number;
  send: (body: string, options: { keepalive: boolean }) => Promise<SendOutcome>;
  storage: NoteStorage | null;
  onState: (state: NoteState) => void;
  debounceMs: number;
  retryBaseMs?: number;
  retryCapMs?: number;
}

export const noteStorageKey = (lessonId: number) => `coursegen:unsaved-note:${lessonId}`;

export function retryDelayMs(failures: number, baseMs: number, capMs: number): number {
  return Math.min(capMs, baseMs * 2 ** Math.max(0, failures - 1));
}

export class NoteSaver {
  private latest: string;
  private saved: string;
  private inFlight = false;
  private failures = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stopped = false;

  constructor(
    private readonly options: NoteSaverOptions,
    serverBody: string,
  ) {
    this.latest = serverBody;
    this.saved = serverBody;
  }

  private get key() {
    return noteStorageKey(this.options.lessonId);
  }

  private keepLocally(text: string) {
    try {
      this.options.storage?.setItem(this.key, text);
    } catch {
      // Storage full or refused (private mode): the retries still hold the text in memory.
    }
  }

  private forgetLocally() {
    try {
      this.options.storage?.removeItem(this.key);
    } catch {
      // As above.
    }
  }

  /** The text to show: what an earlier page could not save, when there is some; then sends it. */
  start(): string {
    let pending: string | null = null;
    try {
      pending = this.options.storage?.getItem(this.key) ?? null;
    } catch {
      pending = null;
    }
    if (pending === null || pending === this.saved) {
      this.forgetLocally();
      return this.saved;
    }
    this.latest = pending;
    this.options.onState({ kind: 'saving' });
    void this.flush();
    return pending;
  }

  change(text: string) {
    this.latest = text;
    this.keepLocally(text);
    this.failures = 0;
    this.options.onState({ kind: 'saving' });
    this.schedule(this.options.debounceMs);
  }

  /** The browser is back online: retry now rather than at the end of the backoff. */
  online() {
    if (this.latest !== this.saved && !this.inFlight) this.schedule(0);
  }

  /** The page is going away: one last save that outlives it (keepalive); storage keeps the text. */
  leave() {
    this.clear();
    if (this.latest === this.saved || this.stopped) return;
    void this.options.send(this.latest, { keepalive: true }).catch(() => undefined);
  }

  stop() {
    this.stopped = true;
    this.clear();
  }

  private clear() {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private schedule(ms: number) {
    this.clear();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, ms);
  }

  async flush(): Promise<void> {
    if (this.inFlight || this.stopped) return;
    if (this.latest === this.saved) {
      this.forgetLocally();
      this.options.onState({ kind: 'saved' });
      return;
    }
    const body = this.latest;
    this.inFlight = true;
    let outcome: SendOutcome;
    try {
      outcome = await this.options.send(body, { keepalive: false });
    } catch {
      outcome = { ok: false, retry: true };
    }
    this.inFlight = false;
    if (this.stopped) return;
    if (outcome.ok) {
      this.saved = body;
      this.failures = 0;
      if (this.latest === body) {
        this.forgetLocally();
        this.options.onState({ kind: 'saved' });
      } else if (this.timer === undefined) void this.flush();
      return;
    }
    if (outcome.gone) this.forgetLocally();
    this.options.onState({ kind: 'unsaved', message: outcome.message });
    if (!outcome.retry) return;
    this.failures += 1;
    this.schedule(
      retryDelayMs(
        this.failures,
        this.options.retryBaseMs ?? 1_000,
        this.options.retryCapMs ?? 30_000,
      ),
    );
  }
}

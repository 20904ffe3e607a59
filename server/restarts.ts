/**
 * The restart counts the start last sent this web process over its IPC channel (ADR 0029), for
 * /healthz. Empty when the process runs without the start.
 */
let restarts: Record<string, number> = {};

process.on('message', (message: unknown) => {
  const counts = (message as { restarts?: unknown } | null)?.restarts;
  if (counts && typeof counts === 'object') restarts = counts as Record<string, number>;
});

export const reportedRestarts = () => restarts;

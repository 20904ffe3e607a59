import type { GenerationState as State } from '../../db/schema';

/** What a job is doing, in words, with an indeterminate progress bar while it works. */
function generationText(
  state: State,
  attempts: number,
  what: string,
  jobServiceDown = false,
): string {
  switch (state) {
    case 'queued':
      return jobServiceDown
        ? `Queued: writing ${what} will start when the job service is back.`
        : `Waiting to write ${what}…`;
    case 'running':
      return `Writing ${what}…`;
    case 'retrying':
      return `The AI is busy. Retrying (attempt ${attempts + 1})…`;
    case 'failed':
      return `Could not write ${what}.`;
    case 'cancelled':
      return 'Cancelled.';
    case 'done':
      return 'Ready';
  }
}

export function GenerationState({
  state,
  attempts,
  what,
  testId,
  jobServiceDown,
}: {
  state: State;
  attempts: number;
  what: string;
  testId: string;
  jobServiceDown?: boolean;
}) {
  const stopped = state === 'failed' || state === 'cancelled';
  return (
    <div className="generation-state" role="status" data-testid={testId} data-state={state}>
      {stopped ? null : <progress aria-label={`Generating ${what}`} />}
      <p>{generationText(state, attempts, what, jobServiceDown)}</p>
    </div>
  );
}

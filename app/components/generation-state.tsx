import type { GenerationState as State } from '../../db/schema';

/** What a job is doing, in words, with an indeterminate progress bar while it works. */
export function generationText(state: State, attempts: number, what: string): string {
  switch (state) {
    case 'queued':
      return `Waiting to write ${what}…`;
    case 'running':
      return `Writing ${what}…`;
    case 'retrying':
      return `The AI is busy. Retrying (attempt ${attempts + 1})…`;
    case 'failed':
      return `Could not write ${what}.`;
    case 'done':
      return 'Ready';
  }
}

export function GenerationState({
  state,
  attempts,
  what,
  testId,
}: {
  state: State;
  attempts: number;
  what: string;
  testId: string;
}) {
  return (
    <div className="generation-state" role="status" data-testid={testId} data-state={state}>
      {state === 'failed' ? null : <progress aria-label={`Generating ${what}`} />}
      <p>{generationText(state, attempts, what)}</p>
    </div>
  );
}

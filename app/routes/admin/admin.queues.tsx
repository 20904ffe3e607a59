import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, useActionData, useLoaderData } from '@remix-run/react';
import { z } from 'zod';
import { FormFeedback } from '~/components/form-feedback';
import { changeJob, queueOverview } from '~/services/admin.server';
import { requireAdmin } from '~/utils/auth.server';
import { formResult } from '~/utils/responses.server';
import { parseWith, readBody } from '~/utils/validation.server';
import { TableScroll } from '~/components/table-scroll';

export const meta: MetaFunction = () => [{ title: 'Queues | Admin Panel' }];

/** Every BullMQ queue: counts, failed and retrying jobs with their errors, retry or remove. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireAdmin(request);
  return { queues: await queueOverview() };
}

const jobChange = z.object({
  queue: z.string().min(1).max(64),
  jobId: z.string().min(1).max(200),
  what: z.enum(['retry', 'remove']),
});

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireAdmin(request);
  const parsed = parseWith(jobChange, await readBody(request));
  if (!parsed.ok) return formResult(400, parsed.message);
  const result = await changeJob(actor, parsed.value.queue, parsed.value.jobId, parsed.value.what);
  return result.ok
    ? formResult(200, result.value.message, true)
    : formResult(result.status, result.message);
}

const COUNTS = ['waiting', 'active', 'delayed', 'failed', 'completed'] as const;

export default function Queues() {
  const { queues } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <section>
      <h1>Queues</h1>
      <FormFeedback result={result} />
      <TableScroll label="Queues">
        <table aria-label="Queues" data-testid="queue-counts">
          <thead>
            <tr>
              <th scope="col">Queue</th>
              {COUNTS.map((name) => (
                <th key={name} scope="col">
                  {name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {queues.map((queue) => (
              <tr key={queue.name}>
                <th scope="row">{queue.name}</th>
                {COUNTS.map((name) => (
                  <td key={name}>{queue.counts[name] ?? 0}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </TableScroll>
      <h2>Failed and retrying jobs</h2>
      {queues.every((queue) => queue.jobs.length === 0) ? (
        <p>Nothing Found</p>
      ) : (
        <TableScroll label="Failed and retrying jobs">
          <table aria-label="Failed and retrying jobs">
            <thead>
              <tr>
                <th scope="col">Queue</th>
                <th scope="col">Job</th>
                <th scope="col">State</th>
                <th scope="col">Attempts</th>
                <th scope="col">Error</th>
                <th scope="col">Edit</th>
              </tr>
            </thead>
            <tbody>
              {queues.flatMap((queue) =>
                queue.jobs.map((job) => (
                  <tr key={`${queue.name}/${job.id}`}>
                    <td>{queue.name}</td>
                    <td>{job.id}</td>
                    <td>{job.state}</td>
                    <td>{job.attempts}</td>
                    <td>{job.error}</td>
                    <td>
                      <Form method="post">
                        <input type="hidden" name="queue" value={queue.name} />
                        <input type="hidden" name="jobId" value={job.id} />
                        <button type="submit" name="what" value="retry" className="button">
                          Retry
                        </button>
                        <button type="submit" name="what" value="remove" className="button">
                          Remove
                        </button>
                      </Form>
                    </td>
                  </tr>
                )),
              )}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}

import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useEffect } from 'react';
import { toast } from 'react-toastify';
import { GenerationState } from '~/components/generation-state';
import { getOutlineForUser, outlineStatus, type OutlineStatus } from '~/models/outlines.server';
import { z } from 'zod';
import {
  cancelOutlineOf,
  ensureOutlineJob,
  retitleOutlineOf,
  startCourse,
  withJobService,
} from '~/services/course-generation.server';
import courseStyles from '~/styles/course.css?url';
import { requireUser } from '~/utils/auth.server';
import { parseWith, readBody, requiredText } from '~/utils/validation.server';
import { useLongPoll } from '~/utils/use-long-poll';
import { languageAttributes } from '~/domain/languages';

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: courseStyles }];
export const meta: MetaFunction = () => [{ title: 'Topics | CourseGen' }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const outline = getOutlineForUser(params.outlineId ?? '', user.id);
  if (!outline) throw new Response('Not Found', { status: 404 });
  await ensureOutlineJob(outline);
  return { status: withJobService(outlineStatus(outline)) };
}

const outlineAction = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('generate') }),
  z.object({ intent: z.literal('cancel') }),
  z.object({
    intent: z.literal('retitle'),
    topic: requiredText(120, { label: 'Topic', singleLine: true }),
  }),
]);

/**
 * Generate Course (rows for the course and its lessons, jobs enqueued, then the course view),
 * or, for an outline the AI could not write, change its title or cancel it.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const outlineId = params.outlineId ?? '';
  const body = await readBody(request);
  const parsed = parseWith(outlineAction, { intent: 'generate', ...body });
  if (!parsed.ok) return data({ error: parsed.message }, { status: 400 });
  const input = parsed.value;
  if (input.intent === 'generate') {
    const started = await startCourse(user, outlineId);
    if (started.ok) return redirect(`/course/${started.value}`);
    if (started.status === 404) throw new Response('Not Found', { status: 404 });
    return data({ error: started.message }, { status: started.status });
  }
  const changed =
    input.intent === 'cancel'
      ? await cancelOutlineOf(user, outlineId)
      : await retitleOutlineOf(user, outlineId, input.topic);
  if (!changed.ok) {
    if (changed.status === 404) throw new Response('Not Found', { status: 404 });
    return data({ error: changed.message }, { status: changed.status });
  }
  return redirect(`/topics/${outlineId}`);
}

/** Polling stops once the outline is written or the member cancelled it. */
const isReady = (status: OutlineStatus) => status.state === 'done' || status.state === 'cancelled';

export default function Topics() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const status = useLongPoll(`/status/outline/${loaderData.status.id}`, loaderData.status, isReady);
  const generating = navigation.state !== 'idle' && navigation.formMethod === 'POST';

  useEffect(() => {
    if (actionData?.error) toast.error(actionData.error);
  }, [actionData]);

  return (
    <section className="page topics-page">
      <h1>{status.mainTopic.toUpperCase()}</h1>
      {status.topics ? (
        <>
          <ol className="outline" data-testid="outline" {...languageAttributes(status.language)}>
            {status.topics.map((topic, index) => (
              <li key={index} className="outline-topic card">
                <h2>{topic.title}</h2>
                <ul>
                  {topic.subtopics.map((subtopic, i) => (
                    <li key={i}>{subtopic.title}</li>
                  ))}
                </ul>
              </li>
            ))}
          </ol>
          <div className="actions">
            <Form method="post">
              <button type="submit" className="button primary" disabled={generating}>
                {generating ? 'Generating Course…' : 'Generate Course'}
              </button>
            </Form>
            <Link to="/create" className="button">
              Go Back
            </Link>
          </div>
        </>
      ) : (
        <>
          {status.unusable && status.state !== 'cancelled' ? (
            <UnusableOutline mainTopic={status.mainTopic} />
          ) : (
            <GenerationState
              state={status.state}
              attempts={status.attempts}
              what="the topics"
              testId="outline-status"
              jobServiceDown={status.jobServiceDown}
            />
          )}
          {status.state === 'cancelled' ? null : (
            <noscript>
              <meta httpEquiv="refresh" content="2" />
            </noscript>
          )}
          <div className="actions">
            <Link to="/create" className="button">
              Go Back
            </Link>
          </div>
        </>
      )}
    </section>
  );
}

/** The AI kept answering with outlines we could not use: say so, and let the member act. */
function UnusableOutline({ mainTopic }: { mainTopic: string }) {
  return (
    <div className="generation-state" role="alert" data-testid="outline-unusable">
      <p>
        The AI&apos;s answers for this course could not be used. It keeps trying, more slowly; you
        can change the title and try again, or cancel.
      </p>
      <Form method="post" className="retitle">
        <input type="hidden" name="intent" value="retitle" />
        <label htmlFor="retitle-topic">Course title</label>
        <input id="retitle-topic" name="topic" defaultValue={mainTopic} maxLength={120} required />
        <button type="submit" className="button primary">
          Try Again
        </button>
      </Form>
      <Form method="post">
        <input type="hidden" name="intent" value="cancel" />
        <button type="submit" className="button">
          Cancel
        </button>
      </Form>
    </div>
  );
}

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
import { ensureOutlineJob, startCourse } from '~/services/course-generation.server';
import courseStyles from '~/styles/course.css?url';
import { requireUser } from '~/utils/auth.server';
import { useLongPoll } from '~/utils/use-long-poll';

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: courseStyles }];
export const meta: MetaFunction = () => [{ title: 'Topics | CourseGen' }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const outline = getOutlineForUser(params.outlineId ?? '', user.id);
  if (!outline) throw new Response('Not Found', { status: 404 });
  await ensureOutlineJob(outline);
  return { status: outlineStatus(outline) };
}

/** Generate Course: rows for the course and its lessons, jobs enqueued, then the course view. */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const started = await startCourse(user, params.outlineId ?? '');
  if (started.ok) return redirect(`/course/${started.value}`);
  if (started.status === 404) throw new Response('Not Found', { status: 404 });
  return data({ error: started.message }, { status: started.status });
}

const isReady = (status: OutlineStatus) => status.state === 'done';

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
          <ol className="outline" data-testid="outline">
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
          <GenerationState
            state={status.state}
            attempts={status.attempts}
            what="the topics"
            testId="outline-status"
          />
          <noscript>
            <meta httpEquiv="refresh" content="2" />
          </noscript>
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

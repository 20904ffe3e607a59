import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useMemo } from 'react';
import { FormFeedback } from '~/components/form-feedback';
import { GenerationState } from '~/components/generation-state';
import { OutlineEditor } from '~/components/outline-editor';
import { getOutlineForUser, outlineStatus } from '~/models/outlines.server';
import { materialHeadingsOfOutline } from '~/services/material/coverage.server';
import type { OutlineStatus } from '~/models/outlines.server';
import { z } from 'zod';
import {
  cancelOutlineOf,
  ensureOutlineJob,
  retitleOutlineOf,
  startCourse,
  withJobService,
} from '~/services/course-generation.server';
import {
  rewriteInstruction,
  rewriteOutlineOf,
  saveOutlineOf,
  stopRewriteOf,
} from '~/services/outline-authoring.server';
import {
  applyOutlineOp,
  controlAfterOp,
  MAX_REWRITE_INSTRUCTION_CHARS,
  outlineControlId,
  outlineFromFields,
  parseOutlineOp,
} from '~/domain/outline-edit';
import type { Result } from '~/domain/result';
import courseStyles from '~/styles/course.css?url';
import { requireUser } from '~/utils/auth.server';
import { parseWith, readBody, requiredText } from '~/utils/validation.server';
import { useLongPoll } from '~/browser/use-long-poll';
import { languageAttributes } from '~/domain/languages';
import { topicLimitOf } from '~/domain/outline-edit';
import { planOf } from '~/services/plans.server';
import { topicCoverage } from '~/domain/material-coverage';
import { siteName } from '~/utils/meta';

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: courseStyles }];
export const meta: MetaFunction = ({ matches }) => [{ title: `Topics | ${siteName(matches)}` }];

export async function loader({ request, params }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const outline = await getOutlineForUser(params.outlineId ?? '', user.id);
  if (!outline) throw new Response('Not Found', { status: 404 });
  await ensureOutlineJob(outline);
  return {
    status: withJobService(await outlineStatus(outline)),
    topicLimit: topicLimitOf(await planOf(user.plan)),
    // The material's headings and pages (not its text): each topic says what it covers (ADR 0058).
    sections: await materialHeadingsOfOutline(outline.id),
  };
}

const outlineAction = z.discriminatedUnion('intent', [
  z.object({ intent: z.literal('generate') }),
  z.object({ intent: z.literal('cancel') }),
  z.object({
    intent: z.literal('retitle'),
    topic: requiredText(120, { label: 'Topic', singleLine: true }),
  }),
  z.object({ intent: z.literal('rewrite'), instruction: rewriteInstruction }),
  z.object({ intent: z.literal('stop-rewrite') }),
]);

/**
 * A refused change: the page says why (or shows Not Found for another member's outline); `edit`
 * when it was an edit of the outline, which the editor then says was not saved.
 */
function refusal(result: Result<unknown>, { edit = false } = {}) {
  if (result.ok) return null;
  if (result.status === 404) throw new Response('Not Found', { status: 404 });
  return data({ error: result.message, edit }, { status: result.status });
}

/**
 * Generate Course (rows for the course and its lessons, jobs enqueued, then the course view),
 * or, for an outline the AI could not write, change its title or cancel it.
 */
export async function action({ request, params }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const outlineId = params.outlineId ?? '';
  const body = await readBody(request);
  // The outline exactly as the page showed it, when the page sent one (ADR 0032).
  const shown = outlineFromFields(body);
  if (body.op !== undefined) {
    // An edit button pressed without JavaScript: the typed titles, then the button's operation.
    const op = parseOutlineOp(body.op);
    if (!op || !shown) return data({ error: 'Unknown change' }, { status: 400 });
    const edited = op === 'save' ? shown : applyOutlineOp(shown, op);
    const saved = await saveOutlineOf(user, outlineId, edited);
    // Back to the control the member was working with (a fragment focuses it), as with JavaScript.
    const control = op === 'save' ? null : controlAfterOp(edited, op);
    const at = control ? `#${outlineControlId(control)}` : '';
    return refusal(saved, { edit: true }) ?? redirect(`/topics/${outlineId}${at}`);
  }
  const parsed = parseWith(outlineAction, { intent: 'generate', ...body });
  if (!parsed.ok) return data({ error: parsed.message }, { status: 400 });
  const input = parsed.value;
  if (input.intent === 'generate') {
    if (shown) {
      const saved = await saveOutlineOf(user, outlineId, shown);
      // A course already made from this outline opens below, whatever was sent.
      if (!saved.ok && saved.status !== 409) return refusal(saved);
    }
    const started = await startCourse(user, outlineId);
    if (started.ok) return redirect(`/course/${started.value}`);
    return refusal(started);
  }
  const changed =
    input.intent === 'cancel'
      ? await cancelOutlineOf(user, outlineId)
      : input.intent === 'retitle'
        ? await retitleOutlineOf(user, outlineId, input.topic)
        : input.intent === 'rewrite'
          ? await rewriteOutlineOf(user, outlineId, input.instruction)
          : await stopRewriteOf(user, outlineId);
  return refusal(changed) ?? redirect(`/topics/${outlineId}`);
}

/** Polling stops once the outline is written (and not being rewritten) or the member cancelled it. */
const isReady = (status: OutlineStatus) =>
  (status.state === 'done' && !status.rewriting) || status.state === 'cancelled';

export default function Topics() {
  const loaderData = useLoaderData<typeof loader>();
  // A new status from the server (a rewrite asked for, a change without JavaScript) follows anew.
  return <TopicsView key={loaderData.status.version} />;
}

function TopicsView() {
  const loaderData = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  // One object per answer: FormFeedback toasts each new one once.
  const refused = useMemo(
    () => (actionData?.error ? { success: false, message: actionData.error } : undefined),
    [actionData],
  );
  const status = useLongPoll(`/status/outline/${loaderData.status.id}`, loaderData.status, isReady);
  const generating =
    navigation.state !== 'idle' &&
    navigation.formMethod === 'POST' &&
    navigation.formData?.get('intent') === 'generate';

  return (
    <section className="page topics-page">
      <h1>{status.mainTopic.toUpperCase()}</h1>
      {/* A refused change: a toast with JavaScript; without, this line at the top of the page
          the browser shows as the answer. */}
      <FormFeedback result={refused} />
      {status.material ? <MaterialNote material={status.material} /> : null}
      {status.topics ? (
        <>
          {status.rewriting ? (
            <div className="rewriting card" data-testid="outline-rewriting">
              <p>
                Rewriting the outline: <q>{status.rewriting}</q>. The outline below stays until the
                new one is ready.
              </p>
              <GenerationState
                state={status.state === 'done' ? 'queued' : status.state}
                attempts={status.attempts}
                what="the new outline"
                testId="rewrite-status"
                jobServiceDown={status.jobServiceDown}
              />
              <Form method="post">
                <input type="hidden" name="intent" value="stop-rewrite" />
                <button type="submit" className="button">
                  Stop rewriting
                </button>
              </Form>
              <noscript>
                <meta httpEquiv="refresh" content="2" />
              </noscript>
            </div>
          ) : null}
          <Form method="post" className="outline-form">
            <OutlineEditor
              outlineId={status.id}
              topicLimit={loaderData.topicLimit}
              initial={status.topics}
              covers={
                loaderData.sections
                  ? (topic) => topicCoverage(loaderData.sections!, topic)
                  : undefined
              }
              revision={status.revision}
              locked={Boolean(status.rewriting)}
              language={languageAttributes(status.language)}
              refusal={
                actionData && 'edit' in actionData && actionData.edit ? actionData.error : undefined
              }
            />
            <div className="actions">
              <button
                type="submit"
                name="intent"
                value="generate"
                className="button primary"
                disabled={generating || Boolean(status.rewriting)}
              >
                {generating ? 'Generating Course…' : 'Generate Course'}
              </button>
              <Link to="/create" className="button">
                Go Back
              </Link>
            </div>
          </Form>
          {status.rewriting ? null : <RewriteOutline />}
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

/** What the course is written from, with a link to the text read from it (its owner's only). */
function MaterialNote({ material }: { material: NonNullable<OutlineStatus['material']> }) {
  const pages = material.pageCount === null ? '' : `, ${material.pageCount} pages`;
  return (
    <p className="muted material-note" data-testid="outline-material">
      Written from your material:{' '}
      <Link to={`/documents/${material.id}`}>
        {material.name}
        {pages}
      </Link>
    </p>
  );
}

/** "Rewrite the outline" with a one-line instruction: one call of the member's AI allowance. */
function RewriteOutline() {
  return (
    <Form method="post" className="rewrite-outline card">
      <input type="hidden" name="intent" value="rewrite" />
      <label htmlFor="rewrite-instruction">Rewrite the outline</label>
      <p className="muted" id="rewrite-hint">
        Say in one line how the AI should change it, e.g. &ldquo;more practical, with an exercise in
        every topic&rdquo;. This uses one of your AI requests.
      </p>
      <div className="row">
        <input
          id="rewrite-instruction"
          name="instruction"
          maxLength={MAX_REWRITE_INSTRUCTION_CHARS}
          aria-describedby="rewrite-hint"
          required
        />
        <button type="submit" className="button">
          Rewrite the outline
        </button>
      </div>
    </Form>
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

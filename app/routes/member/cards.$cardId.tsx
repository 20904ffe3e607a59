import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { Form, Link, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { MAX_ANSWER_CHARS, MAX_QUESTION_CHARS, UNKNOWN_INTENT_MESSAGE } from '~/domain/flashcards';
import { languageAttributes } from '~/domain/languages';
import { cardForMember, editCard, suspendCard } from '~/services/flashcards.server';
import courseStyles from '~/styles/course.css?url';
import flashcardStyles from '~/styles/flashcards.css?url';
import { requireUser } from '~/utils/auth.server';
import { safeRedirect } from '~/utils/redirect';
import { readBody } from '~/utils/validation.server';
import { siteName } from '~/utils/meta';

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: courseStyles },
  { rel: 'stylesheet', href: flashcardStyles },
];
export const meta: MetaFunction = ({ matches }) => [
  { title: `Edit card | ${siteName(matches)}` },
  { name: 'robots', content: 'noindex' },
];

/** Where to go after a change: the page the member came from, else the course's cards. */
const backTo = (value: unknown, courseId: string) =>
  safeRedirect(typeof value === 'string' ? value : null, `/course/${courseId}/cards`);

/** One of the member's cards, to correct its text or suspend it; anyone else's is a 404. */
export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const card = await cardForMember(user, Number(params.cardId));
  if (!card.ok) throw new Response(card.message, { status: card.status });
  return {
    card: card.value,
    back: backTo(new URL(request.url).searchParams.get('back'), card.value.course.id),
  };
}

/**
 * POST intent=edit (question, answer) | suspend | resume. A change goes back where the member
 * came from (`back`); a refused edit stays here with its message (400).
 */
export async function action({ request, params, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const body = await readBody(request);
  const cardId = Number(params.cardId);
  const intents: Record<string, () => ReturnType<typeof cardForMember>> = {
    edit: () => editCard(user, cardId, body),
    suspend: () => suspendCard(user, cardId, true),
    resume: () => suspendCard(user, cardId, false),
  };
  const change = typeof body.intent === 'string' ? intents[body.intent] : undefined;
  // An unknown intent is still a 404 for a card that is not the member's.
  const result = change ? await change() : await cardForMember(user, cardId);
  if (!result.ok) {
    if (result.status === 404) throw new Response('Not Found', { status: 404 });
    return data({ message: result.message }, { status: result.status });
  }
  if (!change) return data({ message: UNKNOWN_INTENT_MESSAGE }, { status: 400 });
  return redirect(backTo(body.back, result.value.course.id), 303);
}

export default function EditCard() {
  const { card, back } = useLoaderData<typeof loader>();
  const refused = useActionData<typeof action>();
  const navigation = useNavigation();
  const text = languageAttributes(card.course.language);
  return (
    <section className="page narrow card-editor" data-testid="card-editor">
      <p>
        <Link to={back}>← Back</Link>
      </p>
      <h1>Edit card</h1>
      <p className="muted">
        {card.course.mainTopic} · {card.lesson.title}
        {card.suspended ? ' · suspended' : ''}
      </p>
      {refused ? (
        <p role="alert" className="error-text" data-testid="card-error">
          {refused.message}
        </p>
      ) : null}
      <Form method="post" className="form">
        <input type="hidden" name="intent" value="edit" />
        <input type="hidden" name="back" value={back} />
        <label>
          Question
          <input
            name="question"
            defaultValue={card.question}
            maxLength={MAX_QUESTION_CHARS}
            required
            {...text}
          />
        </label>
        <label>
          Answer
          <input
            name="answer"
            defaultValue={card.answer}
            maxLength={MAX_ANSWER_CHARS}
            required
            {...text}
          />
        </label>
        <button type="submit" className="button primary" disabled={navigation.state !== 'idle'}>
          Save card
        </button>
      </Form>
      <Form method="post" className="row">
        <input type="hidden" name="back" value={back} />
        <input type="hidden" name="intent" value={card.suspended ? 'resume' : 'suspend'} />
        <button type="submit" className="button">
          {card.suspended ? 'Resume card' : 'Suspend card'}
        </button>
        <span className="muted">
          {card.suspended
            ? 'It is left out of your reviews.'
            : 'A suspended card is left out of your reviews until you resume it.'}
        </span>
      </Form>
    </section>
  );
}

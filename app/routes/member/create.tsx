import {
  data,
  redirect,
  type ActionFunctionArgs,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { useEffect, useState, type ChangeEvent, type FormEvent, type MouseEvent } from 'react';
import { toast } from 'react-toastify';
import { z } from 'zod';
import { LanguageSelect } from '~/components/language-select';
import { DEFAULT_LANGUAGE, isLanguageCode } from '~/domain/languages';
import { startOutline } from '~/services/course-generation.server';
import { courseLanguage } from '~/utils/language.server';
import courseStyles from '~/styles/course.css?url';
import { requireUser } from '~/utils/auth.server';
import {
  COURSE_TYPE_LABELS,
  isPaidPlan,
  MAX_MEMBER_SUBTOPICS,
  MAX_SUBTOPICS_MESSAGE,
  PAID_ONLY_MESSAGE,
  topicCountChoices,
} from '~/domain/plans';
import { plans } from '~/services/plans.server';
import { missingFieldMessage } from '~/utils/messages';
import {
  ACCEPT_ATTRIBUTE,
  DOCUMENT_EXTENSIONS,
  MATERIAL_MESSAGES,
  MAX_CREATE_FORM_BYTES,
  MAX_DOCUMENT_BYTES,
  materialAllowance,
  missingSubtopicMessage,
} from '~/domain/material';
import { topicLimitOf } from '~/domain/outline-edit';
import type { RouteBodyLimit } from '~/load-context';
import { hasMaterial } from '~/services/material/intake.server';
import { cleanText, parseWith, readBodyWithFile } from '~/utils/validation.server';
import { siteName } from '~/utils/meta';

export const links: LinksFunction = () => [{ rel: 'stylesheet', href: courseStyles }];
export const meta: MetaFunction = ({ matches }) => [
  { title: `Generate Course | ${siteName(matches)}` },
];

type CourseTypeValue = keyof typeof COURSE_TYPE_LABELS;

/** A document and the form around it; a larger form comes back as this page with the message. */
export const bodyLimit: RouteBodyLimit = {
  bytes: MAX_CREATE_FORM_BYTES,
  tooLarge: MATERIAL_MESSAGES.tooLarge,
};

export async function loader({ request }: LoaderFunctionArgs) {
  const user = await requireUser(request);
  const table = await plans();
  const plan = table[user.plan];
  const { material } = plan.limits;
  return {
    paid: isPaidPlan(user.plan),
    // Every count some plan allows, and those the member's plan allows (a setting, ADR 0055).
    topicChoices: topicCountChoices(table),
    topicCounts: plan.limits.topicCounts,
    // Sub-topics given with material join after its topics, up to this many topics in all.
    topicLimit: topicLimitOf(plan).max,
    // The member's own material (ADR 0032): what their plan lets them give.
    material: {
      documents: material.documents,
      pastedChars: material.pastedChars,
      allowance: materialAllowance(plan),
    },
  };
}

const list = (value: unknown): string[] =>
  (Array.isArray(value) ? value : value === undefined ? [] : [value]).map((v) =>
    typeof v === 'string' ? v : '',
  );

const TOPIC_REQUIRED = missingFieldMessage('Topic');

/**
 * The form's rules. Sub-topics are needed only without material: with a document or pasted text,
 * its sections make the outline (ADR 0047).
 */
const createSchema = ({
  needsSubtopic,
  documents,
  topicChoices,
}: {
  needsSubtopic: boolean;
  documents: boolean;
  topicChoices: readonly number[];
}) =>
  z.object({
    topic: z
      .string({ error: TOPIC_REQUIRED })
      .trim()
      .min(1, TOPIC_REQUIRED)
      .max(120, 'Please keep this under 120 characters')
      .pipe(cleanText({ label: 'Topic', singleLine: true })),
    subtopic: z
      .array(
        z
          .string()
          .trim()
          .max(120, 'Please keep this under 120 characters')
          .pipe(cleanText({ label: 'Sub Topic', singleLine: true })),
      )
      .transform((values) => values.filter(Boolean))
      .pipe(
        z
          .array(z.string())
          .min(needsSubtopic ? 1 : 0, missingSubtopicMessage(documents))
          .max(MAX_MEMBER_SUBTOPICS, MAX_SUBTOPICS_MESSAGE),
      ),
    topicCount: z.coerce
      .number({ error: missingFieldMessage('number of topics') })
      .refine((n) => topicChoices.includes(n), missingFieldMessage('number of topics')),
    type: z.enum(['text', 'video'], { error: missingFieldMessage('Course Type') }),
    language: courseLanguage,
  });

interface FormValues {
  topic: string;
  subtopics: string[];
  topicCount: number;
  type: CourseTypeValue;
  language: string;
  pasted: string;
}

function valuesOf(body: Record<string, unknown>, topicChoices: readonly number[]): FormValues {
  const subtopics = list(body.subtopic).slice(0, MAX_MEMBER_SUBTOPICS);
  return {
    topic: typeof body.topic === 'string' ? body.topic : '',
    subtopics: subtopics.length > 0 ? subtopics : [''],
    topicCount:
      topicChoices.find((count) => String(count) === String(body.topicCount)) ??
      topicChoices[0] ??
      0,
    type: body.type === 'video' ? 'video' : 'text',
    language: isLanguageCode(body.language) ? body.language : DEFAULT_LANGUAGE,
    // A form sends a textarea's line breaks as CRLF (HTML's form encoding): one character each,
    // as the page counts them and the member sees them.
    pasted: typeof body.pasted === 'string' ? body.pasted.replace(/\r\n?/g, '\n') : '',
  };
}

/**
 * Without JavaScript the Add and Remove buttons post here too (intent) and
 * the page comes back with one input more or less. Otherwise: validate, check
 * the member's plan, store the outline request and enqueue its job.
 */
export async function action({ request }: ActionFunctionArgs) {
  const user = await requireUser(request);
  const { body, file } = await readBodyWithFile(request, 'document');
  const table = await plans();
  const topicChoices = topicCountChoices(table);
  const values = valuesOf(body, topicChoices);
  const intent = body.intent;
  if (intent === 'add') {
    if (list(body.subtopic).length >= MAX_MEMBER_SUBTOPICS)
      return data({ error: MAX_SUBTOPICS_MESSAGE, values }, { status: 400 });
    return { error: null, values: { ...values, subtopics: [...values.subtopics, ''] } };
  }
  if (intent === 'remove') {
    const subtopics = values.subtopics.length > 1 ? values.subtopics.slice(0, -1) : [''];
    return { error: null, values: { ...values, subtopics } };
  }

  const material = { file, pasted: values.pasted };
  const schema = createSchema({
    needsSubtopic: !hasMaterial(material),
    documents: table[user.plan].limits.material.documents,
    topicChoices,
  });
  const parsed = parseWith(schema, { ...body, subtopic: list(body.subtopic) });
  if (!parsed.ok) return data({ error: parsed.message, values }, { status: 400 });

  const started = await startOutline(user, {
    mainTopic: parsed.value.topic,
    subtopics: parsed.value.subtopic,
    topicCount: parsed.value.topicCount,
    type: parsed.value.type,
    language: parsed.value.language,
    material,
  });
  if (!started.ok) return data({ error: started.message, values }, { status: started.status });
  return redirect(`/topics/${started.value.id}`);
}

export default function Create() {
  const { paid, topicChoices, topicCounts, topicLimit, material } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const submitting = navigation.state === 'submitting' && !navigation.formData?.get('intent');
  const initial = actionData?.values;
  const [topic, setTopic] = useState(initial?.topic ?? '');
  const [subtopics, setSubtopics] = useState<string[]>(initial?.subtopics ?? ['']);
  const [topicCount, setTopicCount] = useState<number>(initial?.topicCount ?? topicCounts[0] ?? 0);
  const [type, setType] = useState<CourseTypeValue>(initial?.type ?? 'text');
  const [language, setLanguage] = useState(initial?.language ?? DEFAULT_LANGUAGE);
  const [pasted, setPasted] = useState(initial?.pasted ?? '');
  const [documentChosen, setDocumentChosen] = useState(false);

  useEffect(() => {
    if (!actionData) return;
    setTopic(actionData.values.topic);
    setSubtopics(actionData.values.subtopics);
    setTopicCount(actionData.values.topicCount);
    setType(actionData.values.type);
    setLanguage(actionData.values.language);
    setPasted(actionData.values.pasted);
    if (actionData.error) toast.error(actionData.error);
  }, [actionData]);

  function addSubtopic(event: MouseEvent<HTMLButtonElement>) {
    event.preventDefault();
    if (subtopics.length >= MAX_MEMBER_SUBTOPICS) toast.error(MAX_SUBTOPICS_MESSAGE);
    else setSubtopics([...subtopics, '']);
  }

  function removeSubtopic(event: MouseEvent<HTMLButtonElement>) {
    event.preventDefault();
    setSubtopics(subtopics.slice(0, -1));
  }

  function chooseCount(count: number) {
    if (!topicCounts.includes(count)) toast.error(PAID_ONLY_MESSAGE);
    else setTopicCount(count);
  }

  function chooseType(value: CourseTypeValue) {
    if (value !== 'text' && !paid) toast.error(PAID_ONLY_MESSAGE);
    else setType(value);
  }

  /** The plan's and the size limits, said at once; the server checks them again. */
  function chooseDocument(event: ChangeEvent<HTMLInputElement>) {
    const input = event.currentTarget;
    const chosen = input.files?.[0];
    setDocumentChosen(Boolean(chosen));
    if (!chosen) return;
    const ending = /\.([A-Za-z0-9]+)$/.exec(chosen.name)?.[1]?.toLowerCase() ?? '';
    const refusal = !material.documents
      ? PAID_ONLY_MESSAGE
      : !DOCUMENT_EXTENSIONS[ending]
        ? MATERIAL_MESSAGES.unsupported
        : chosen.size > MAX_DOCUMENT_BYTES
          ? MATERIAL_MESSAGES.tooLarge
          : null;
    if (refusal) {
      toast.error(refusal);
      input.value = '';
      setDocumentChosen(false);
    }
  }

  function checkRequired(event: FormEvent<HTMLFormElement>) {
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    if (submitter?.name === 'intent') return;
    const withMaterial = documentChosen || pasted.trim() !== '';
    if (!topic.trim()) {
      event.preventDefault();
      toast.error(TOPIC_REQUIRED);
    } else if (!withMaterial && !subtopics.some((s) => s.trim())) {
      event.preventDefault();
      toast.error(missingSubtopicMessage(material.documents));
    } else if (pasted.length > material.pastedChars) {
      event.preventDefault();
      toast.error(MATERIAL_MESSAGES.pastedTooLong(material.pastedChars));
    }
  }

  return (
    <section className="page narrow create-page">
      <h1>Generate Course</h1>
      <p className="muted">Type a course title and the sub-topics you want; AI writes the rest.</p>
      <Form
        method="post"
        encType="multipart/form-data"
        className="form card"
        onSubmit={checkRequired}
        noValidate
      >
        {actionData?.error ? (
          <noscript>
            <p className="error-text" role="alert">
              {actionData.error}
            </p>
          </noscript>
        ) : null}
        <label>
          Topic
          <input
            name="topic"
            value={topic}
            onChange={(e) => setTopic(e.target.value)}
            placeholder="Enter Topic"
            maxLength={120}
            required
          />
        </label>
        <fieldset className="subtopics" aria-describedby="subtopic-rule">
          <legend>Sub Topic</legend>
          <p className="muted" id="subtopic-rule">
            Optional with your own material (below): its sections become the topics, and each
            sub-topic you type is added after them as a topic of its own while the course stays
            within your plan&rsquo;s {topicLimit} topics. No section is left out for one.
          </p>
          {subtopics.map((value, index) => (
            <input
              key={index}
              name="subtopic"
              aria-label={`Sub Topic ${index + 1}`}
              value={value}
              onChange={(e) =>
                setSubtopics(subtopics.map((s, i) => (i === index ? e.target.value : s)))
              }
              placeholder="Enter Sub-Topic"
              maxLength={120}
            />
          ))}
          <div className="row">
            <button
              type="submit"
              name="intent"
              value="add"
              className="button"
              formNoValidate
              onClick={addSubtopic}
            >
              Add Sub-Topic
            </button>
            {subtopics.length > 1 ? (
              <button
                type="submit"
                name="intent"
                value="remove"
                className="button"
                formNoValidate
                onClick={removeSubtopic}
              >
                Remove Sub-Topic
              </button>
            ) : null}
          </div>
        </fieldset>
        <fieldset className="choices">
          <legend>
            {paid
              ? 'Select number of sub topics'
              : `For free member sub topics is limited to ${topicLimit}`}
          </legend>
          {topicChoices.map((count) => (
            <label key={count} className="choice">
              <input
                type="radio"
                name="topicCount"
                value={count}
                checked={topicCount === count}
                onChange={() => chooseCount(count)}
              />
              {count}
            </label>
          ))}
        </fieldset>
        <fieldset className="choices">
          <legend>Course Type</legend>
          {(Object.keys(COURSE_TYPE_LABELS) as CourseTypeValue[]).map((value) => (
            <label key={value} className="choice">
              <input
                type="radio"
                name="type"
                value={value}
                checked={type === value}
                onChange={() => chooseType(value)}
              />
              {COURSE_TYPE_LABELS[value]}
            </label>
          ))}
        </fieldset>
        <LanguageSelect value={language} onChange={setLanguage} />
        <fieldset className="material" data-testid="material">
          <legend>Your own material (optional)</legend>
          <p className="muted" id="material-allowance">
            Build the course from your syllabus, notes or handbook. {material.allowance}.
          </p>
          <label>
            Attach a document
            <input
              type="file"
              name="document"
              accept={ACCEPT_ATTRIBUTE}
              aria-describedby="material-allowance"
              onChange={chooseDocument}
            />
          </label>
          <label>
            Or paste text
            <textarea
              name="pasted"
              value={pasted}
              onChange={(e) => setPasted(e.target.value)}
              rows={5}
              aria-describedby="material-allowance"
              placeholder="Paste your notes here (Markdown headings become topics)"
            />
          </label>
          <p className="muted" data-testid="pasted-count">
            {pasted.length.toLocaleString('en-US')} / {material.pastedChars.toLocaleString('en-US')}{' '}
            characters
          </p>
        </fieldset>
        <button type="submit" className="button primary" disabled={submitting}>
          {submitting ? 'Submitting…' : 'Submit'}
        </button>
      </Form>
    </section>
  );
}

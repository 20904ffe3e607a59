import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Form, useActionData, useLoaderData, useNavigation } from '@remix-run/react';
import { FormFeedback } from '~/components/form-feedback';
import type { PaymentProvider } from '../../../db/schema';
import {
  CURRENCIES,
  describePlanChange,
  MAX_PLAN_PASTED_CHARS,
  MAX_TOPICS,
  MAX_LESSONS_PER_TOPIC,
  COURSE_EXPORT_FORMATS,
  COURSE_EXPORT_LABELS,
  MAX_TUTOR_QUESTIONS_PER_DAY,
  MAX_TRIAL_DAYS,
  PLAN_IDS,
  PLAN_NAMES,
  type PaidPlanId,
  type PlanId,
} from '~/domain/plans';
import {
  planChanges,
  planSettings,
  rollBackPlanChange,
  savePlanSettings,
} from '~/services/plans.server';
import { SettingChanges } from '~/components/setting-changes';
import { BrandingSettings } from '~/components/branding-settings';
import { brandFormAction, brandPage, isBrandIntent } from '~/services/brand.server';
import { requireMainAdmin } from '~/utils/auth.server';
import { formResult, guardForm } from '~/utils/responses.server';
import { readBodyWithFile } from '~/utils/validation.server';

export const meta: MetaFunction = () => [{ title: 'Settings | Admin Panel' }];

/** The install's settings: the main admin's alone (ADR 0055); anyone else gets a 404. */
export async function loader({ request }: LoaderFunctionArgs) {
  await requireMainAdmin(request);
  const [plans, changes, branding] = await Promise.all([
    planSettings(),
    planChanges(),
    brandPage(),
  ]);
  return {
    plans,
    branding,
    changes: changes.map((change) => ({
      id: change.id,
      at: change.at.slice(0, 16).replace('T', ' '),
      actorEmail: change.actorEmail,
      what: `${change.action === 'rollback-plans' ? 'Rollback: ' : ''}${
        describePlanChange(change.before, change.after).join('; ') || 'No change'
      }`,
    })),
  };
}

export async function action({ request }: ActionFunctionArgs) {
  const actor = await requireMainAdmin(request);
  // The brand form sends its logo as a file (multipart); the plans' forms send fields only.
  const { body, file } = await readBodyWithFile(request, 'logo');
  return guardForm(isBrandIntent(body.intent) ? 'save-brand' : 'save-plans', async () => {
    const result = isBrandIntent(body.intent)
      ? await brandFormAction(actor, body, file)
      : body.intent === 'rollback'
        ? await rollBackPlanChange(actor, body.auditId)
        : await savePlanSettings(actor, body);
    return result.ok
      ? formResult(200, result.value.message, true)
      : formResult(result.status, result.message);
  });
}

const dollars = (cents: number) =>
  cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2);

/** A provider's price fields: `monthlyPrice`/`monthlyCurrency` are PayPal's (ADR 0063). */
const PROVIDER_FIELDS: [PaymentProvider, string, string][] = [
  ['paypal', 'PayPal', ''],
  ['razorpay', 'Razorpay', 'Razorpay'],
];

export default function Settings() {
  const { plans, changes, branding } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const saving = useNavigation().state === 'submitting';
  const priceFields = (id: PaidPlanId) => {
    const plan = plans[id];
    const period = id === 'monthly' ? 'month' : 'year';
    return (
      <>
        {PROVIDER_FIELDS.map(([provider, label, prefix]) => (
          <div className="price-fields" key={provider}>
            <label>
              {label} price per {period}
              <input
                name={`${id}${prefix}Price`}
                inputMode="decimal"
                required
                defaultValue={dollars(plan.prices[provider].amountCents)}
              />
            </label>
            <label>
              {label} currency
              <select name={`${id}${prefix}Currency`} defaultValue={plan.prices[provider].currency}>
                {CURRENCIES.map((currency) => (
                  <option key={currency} value={currency}>
                    {currency}
                  </option>
                ))}
              </select>
            </label>
          </div>
        ))}
        <WholeNumberField
          label={`Free trial in days (0 for none, up to ${MAX_TRIAL_DAYS})`}
          name={`${id}TrialDays`}
          min={0}
          max={MAX_TRIAL_DAYS}
          defaultValue={plan.trialDays}
        />
      </>
    );
  };
  const limitFields = (id: PlanId) => {
    const plan = plans[id];
    return (
      <>
        <WholeNumberField
          label={`Topics per course (1 to ${MAX_TOPICS})`}
          name={`${id}Topics`}
          min={1}
          max={MAX_TOPICS}
          defaultValue={plan.topics}
        />
        <WholeNumberField
          label={`Lessons per topic (1 to ${MAX_LESSONS_PER_TOPIC})`}
          name={`${id}LessonsPerTopic`}
          min={1}
          max={MAX_LESSONS_PER_TOPIC}
          defaultValue={plan.lessonsPerTopic}
        />
        <WholeNumberField
          label={`Pasted characters (0 to ${MAX_PLAN_PASTED_CHARS.toLocaleString('en-US')})`}
          name={`${id}PastedChars`}
          min={0}
          max={MAX_PLAN_PASTED_CHARS}
          defaultValue={plan.pastedChars}
        />
        <label className="checkbox">
          <input name={`${id}Documents`} type="checkbox" defaultChecked={plan.documents} />
          Documents may be attached
        </label>
        <WholeNumberField
          label={`Tutor questions a day (1 to ${MAX_TUTOR_QUESTIONS_PER_DAY.toLocaleString('en-US')})`}
          name={`${id}TutorQuestions`}
          min={1}
          max={MAX_TUTOR_QUESTIONS_PER_DAY}
          defaultValue={plan.tutorQuestionsPerDay}
        />
        <fieldset>
          <legend>Course downloads</legend>
          {/* Tells the server the boxes were on the form, so none ticked means none. */}
          <input type="hidden" name={`${id}ExportsShown`} value="1" />
          {COURSE_EXPORT_FORMATS.map((format) => (
            <label key={format} className="checkbox">
              <input
                name={`${id}Export-${format}`}
                type="checkbox"
                defaultChecked={plan.exports.includes(format)}
              />
              {COURSE_EXPORT_LABELS[format]}
            </label>
          ))}
        </fieldset>
      </>
    );
  };
  return (
    <section>
      <h1>Settings</h1>
      <p>
        Prices and limits apply at once on every page and process. Members already subscribed keep
        the price they pay until they change plan.
      </p>
      <p className="notice" data-testid="provider-price-notice">
        Saving a new price or trial creates the matching plan at PayPal and Razorpay (each in its
        own currency), and new checkouts use it from then on. If a provider refuses, nothing is
        saved. Until a price is saved here, checkouts use the plans set in the environment
        (PAYPAL_MONTHLY_PLAN_ID and the others; see the billing guide).
      </p>
      <FormFeedback result={result} />
      <Form method="post" className="form settings-form" data-testid="plan-settings">
        {PLAN_IDS.map((id) => (
          <fieldset key={id}>
            <legend>{PLAN_NAMES[id]}</legend>
            {id === 'free' ? null : priceFields(id)}
            {limitFields(id)}
          </fieldset>
        ))}
        <button type="submit" className="button primary" disabled={saving}>
          Save Settings
        </button>
      </Form>
      <h2>Changes</h2>
      {changes.length === 0 ? (
        <p>The plans are the product&apos;s own: nothing has been changed yet.</p>
      ) : (
        <SettingChanges
          label="Changes to the plans"
          testId="plan-changes"
          changes={changes}
          rollbackIntent="rollback"
          rollbackLabel={(at) => `Roll back the change of ${at}`}
        />
      )}
      <BrandingSettings branding={branding} saving={saving} />
    </section>
  );
}

/** A required whole number of the plan form, its range in its label and in the browser's check. */
function WholeNumberField(props: {
  label: string;
  name: string;
  min: number;
  max: number;
  defaultValue: number;
}) {
  const { label, ...input } = props;
  return (
    <label>
      {label}
      <input type="number" inputMode="numeric" required {...input} />
    </label>
  );
}

import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { ContactCta } from '~/components/contact-cta';
import { Faq, type FaqItem } from '~/components/faq';
import { PlanCards } from '~/components/plan-card';
import { materialAllowance } from '~/domain/material';
import {
  FLASHCARD_PLANS,
  formatPlanPrice,
  mostTopics,
  planList,
  planName,
  type PlanDefinition,
} from '~/domain/plans';
import { plans } from '~/services/plans.server';
import { paidUntilOf } from '~/services/billing/subscription-view.server';
import { enabledProviders } from '~/services/billing/providers.server';
import publicStyles from '~/styles/public.css?url';
import { getSessionUser } from '~/utils/auth.server';
import { pageMeta } from '~/utils/meta';
import { TableScroll } from '~/components/table-scroll';

export const links = () => [{ rel: 'stylesheet', href: publicStyles }];

export const meta: MetaFunction<typeof loader> = ({ matches, data }) =>
  pageMeta(matches, {
    title: 'Pricing',
    description: data
      ? `Free Plan, Monthly Plan at ${data.prices.monthly} or Yearly Plan at ${data.prices.yearly}. Compare what each plan includes.`
      : 'Compare what each plan includes.',
  });

const benefits = (topics: { free: number; paid: number }) => [
  {
    title: 'Deeper courses',
    text: `Paid plans generate courses of ${topics.paid} topics instead of ${topics.free}, and video courses.`,
  },
  {
    title: 'Video lessons',
    text: 'Unlock Video & Theory courses: a video for every lesson with theory beside it.',
  },
  {
    title: 'Courses for your LMS',
    text: 'Paid plans download any finished course as a SCORM 1.2 package for Moodle, Canvas, Blackboard and other learning management systems, quizzes and final exam included.',
  },
  {
    title: 'Unlimited courses',
    text: 'Every plan, free included, lets you create as many courses as you like.',
  },
  {
    title: 'Flashcards that stay with you',
    text: 'Every plan, Free included: each lesson gets a small deck of flashcards, and Review brings each card back just before you would forget it.',
  },
  {
    title: 'Cancel any time',
    text: 'No contracts: cancel from your Subscription page whenever you want.',
  },
];

/** 'A', 'A and B', 'A, B and C'. */
const listOf = (names: string[]) =>
  names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? '');

const faq = (topics: { free: number; paid: number }): FaqItem[] => [
  {
    question: 'What do I get on the Free Plan?',
    answer: (
      <p>
        Unlimited Theory &amp; Image courses of {topics.free} topics each, for as long as you like.
        Video &amp; Theory courses and {topics.paid}-topic courses need a paid plan.
      </p>
    ),
  },
  {
    question: 'Which plans include flashcards?',
    answer: (
      <p data-testid="flashcard-plans">
        {`Flashcards come with the ${listOf(FLASHCARD_PLANS.map(planName))}`}: every lesson you
        study gets its deck, and the Review page schedules each card with spaced repetition (FSRS).
        Writing them does not count against your hourly AI allowance.
      </p>
    ),
  },
  {
    question: 'How do I cancel my subscription?',
    answer: (
      <p>
        Open your profile, choose Manage Subscriptions and press Cancel Subscription; your courses
        stay in your account. Read the full <Link to="/cancellation">Cancellation Policy</Link>.
      </p>
    ),
  },
  {
    question: 'Can I get a refund?',
    answer: (
      <p>
        Payments are generally not refundable once a billing period has started, with a few
        exceptions such as double charges. See the <Link to="/refund">Refund Policy</Link>.
      </p>
    ),
  },
  {
    question: 'How does billing work?',
    answer: (
      <p>
        Paid plans renew automatically every month or year until you cancel, and the next billing
        date is shown on your Subscription page. Details are in the{' '}
        <Link to="/billing">Subscription &amp; Billing Policy</Link>.
      </p>
    ),
  },
  {
    question: 'Can I switch between monthly and yearly?',
    answer: (
      <p>
        Yes: members who subscribed with PayPal can modify their plan from the Subscription page;
        the new price applies from the next billing date.
      </p>
    ),
  },
];

/** A member who cancelled keeps the paid plan until the period ends: say until when. */
export async function loader({ request }: LoaderFunctionArgs) {
  const user = await getSessionUser(request);
  const [table, providers] = await Promise.all([plans(), enabledProviders()]);
  return {
    paidUntil: user ? await paidUntilOf(user) : null,
    plans: planList(table),
    providers,
    prices: {
      monthly: formatPlanPrice(table.monthly, providers[0]),
      yearly: formatPlanPrice(table.yearly, providers[0]),
    },
    topics: {
      free: mostTopics(table.free),
      paid: Math.max(mostTopics(table.monthly), mostTopics(table.yearly)),
    },
  };
}

export default function Pricing() {
  const { paidUntil, plans: list, providers, topics } = useLoaderData<typeof loader>();
  return (
    <div className="page">
      <header className="page-intro">
        <h1>Pricing</h1>
        <p className="lead">Start free, upgrade when you want deeper courses and video lessons.</p>
      </header>
      <section aria-labelledby="plans-title">
        <h2 id="plans-title" className="visually-hidden">
          Plans
        </h2>
        {paidUntil ? (
          <p className="notice" data-testid="paid-until">
            Your subscription is cancelled: your paid plan stays active until {paidUntil}.
          </p>
        ) : null}
        <PlanCards plans={list} providers={providers} />
      </section>
      <section className="section-tight" aria-labelledby="benefits-title">
        <h2 id="benefits-title">Benefits</h2>
        <ul className="feature-grid">
          {benefits(topics).map((benefit) => (
            <li key={benefit.title} className="feature">
              <h3>{benefit.title}</h3>
              <p>{benefit.text}</p>
            </li>
          ))}
        </ul>
      </section>
      <section className="section-tight" aria-labelledby="material-title">
        <h2 id="material-title">Courses from your own material</h2>
        <p>
          Build a course from your syllabus, lecture notes or handbook: the outline follows its
          headings, and every lesson says which pages or sections it was written from.
        </p>
        <TableScroll label="Courses from your own material">
          <table className="material-plans" data-testid="material-plans">
            <thead>
              <tr>
                <th scope="col">Plan</th>
                <th scope="col">Your own material</th>
              </tr>
            </thead>
            <tbody>
              {list.map((plan: PlanDefinition) => (
                <tr key={plan.id}>
                  <th scope="row">{plan.name}</th>
                  <td>{materialAllowance(plan)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      </section>
      <Faq items={faq(topics)} />
      <ContactCta text="Still have questions about plans or billing?" />
    </div>
  );
}

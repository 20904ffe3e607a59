import type { MetaFunction } from '@remix-run/node';
import { Link, useLoaderData } from '@remix-run/react';
import { planList } from '~/domain/plans';
import { plans } from '~/services/plans.server';
import { HeroArt } from '~/components/hero-art';
import { PlanCards } from '~/components/plan-card';
import { useRootData } from '~/root';
import publicStyles from '~/styles/public.css?url';
import { pageMeta } from '~/utils/meta';

export const links = () => [{ rel: 'stylesheet', href: publicStyles }];

export const meta: MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'AI course generator: a whole course from one title',
    description:
      'Type a course title and the AI writes the sub-topics and every lesson, as theory with images or video with theory. Study online, track progress and earn a certificate.',
  });

/** The plans as the operator set them (ADR 0055), for the pricing cards. */
export async function loader() {
  return { plans: planList(await plans()) };
}

const STEPS = [
  {
    title: 'Enter Course Title',
    text: 'Type what you want to learn and, if you like, up to five sub-topics to steer the course.',
  },
  {
    title: 'AI Generates Sub-Topics',
    text: 'The AI drafts an outline of topics and sub-topics. Look it over, then generate the course.',
  },
  {
    title: 'Video & Theory Course',
    text: 'Every sub-topic becomes a lesson: clear theory with an image, or a video with the theory beside it.',
  },
];

export default function Landing() {
  const { plans: planCards } = useLoaderData<typeof loader>();
  const user = useRootData()?.user ?? null;
  return (
    <div className="landing">
      <section className="hero landing-hero" aria-labelledby="hero-title">
        <div className="hero-text">
          <h1 id="hero-title">Generate a course on anything with AI</h1>
          <p className="lead">
            Enter a course title and get a complete course in minutes: an outline of sub-topics,
            theory with images or videos, progress tracking and a certificate at the end.
          </p>
          <div className="actions hero-actions">
            {user ? (
              <>
                <Link to="/home" className="button">
                  Home
                </Link>
                <Link to="/create" className="button primary">
                  Generate Course
                </Link>
              </>
            ) : (
              <>
                <Link to="/signin" className="button">
                  SignIn
                </Link>
                <Link to="/signup" className="button primary">
                  SignUp
                </Link>
              </>
            )}
          </div>
        </div>
        <HeroArt />
      </section>

      <section className="section" aria-labelledby="features-title">
        <h2 id="features-title" className="section-title">
          Learn anything, your way
        </h2>
        <div className="blurbs">
          <article className="blurb">
            <img src="/images/icon-study.svg" alt="" width={56} height={56} />
            <h3>Study Online</h3>
            <p>
              Read the theory, watch the videos and tick off each sub-topic as you go. Your progress
              is saved, so you can pick up where you left off on any device.
            </p>
          </article>
          <article className="blurb">
            <img src="/images/icon-create.svg" alt="" width={56} height={56} />
            <h3>Create Course</h3>
            <p>
              Choose a topic, add the sub-topics you care about and pick theory with images or video
              with theory. The AI writes the whole course for you.
            </p>
          </article>
        </div>
      </section>

      <section className="section alt" aria-labelledby="how-title">
        <h2 id="how-title" className="section-title">
          How it works
        </h2>
        <ol className="steps">
          {STEPS.map((step, index) => (
            <li key={step.title} className="step">
              <span className="step-number" aria-hidden="true">
                {index + 1}
              </span>
              <h3>{step.title}</h3>
              <p>{step.text}</p>
            </li>
          ))}
        </ol>
      </section>

      <section className="section" aria-labelledby="pricing-title">
        <h2 id="pricing-title" className="section-title">
          Pricing
        </h2>
        <p className="section-lead">Start free. Upgrade for longer courses and video lessons.</p>
        <PlanCards plans={planCards} />
      </section>

      <section className="section alt" aria-labelledby="testimonial-title">
        <h2 id="testimonial-title" className="section-title">
          What learners say
        </h2>
        <figure className="testimonial">
          <blockquote>
            <p>
              I typed &ldquo;Introduction to Machine Learning&rdquo; and ten minutes later I had a
              structured course with videos for every topic. It is the fastest way I have found to
              get into a new subject.
            </p>
          </blockquote>
          <figcaption>
            <strong>Priya Sharma</strong>, software engineer
          </figcaption>
        </figure>
      </section>

      <section className="get-started" aria-labelledby="get-started-title">
        <h2 id="get-started-title">Ready to learn something new?</h2>
        <p>Your first course is one title away. It is free to start.</p>
        <Link to={user ? '/create' : '/signup'} className="button primary">
          Get Started
        </Link>
      </section>
    </div>
  );
}

import type { MetaFunction } from '@remix-run/node';
import { ContactCta } from '~/components/contact-cta';
import publicStyles from '~/styles/public.css?url';
import { pageMeta } from '~/utils/meta';

export const links = () => [{ rel: 'stylesheet', href: publicStyles }];

export const meta: MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'About',
    description:
      'Why we built an AI course generator: learning anything should start with one title, not hours of searching.',
  });

export default function About() {
  return (
    <div className="page prose">
      <h1>About</h1>
      <p className="lead">
        We believe learning something new should start with a single title, not with hours of
        searching for the right articles and videos.
      </p>
      <h2>What we do</h2>
      <p>
        Our AI course generator turns any subject into a structured course. You say what you want to
        learn; the AI plans the topics and sub-topics, writes the theory, finds a fitting image or
        video for each lesson and keeps track of your progress until you earn your certificate.
      </p>
      <h2>Who it is for</h2>
      <ul>
        <li>Learners who want a clear path through a new subject.</li>
        <li>Teachers and trainers who need a first draft of a course in minutes.</li>
        <li>Teams that want short, focused courses for onboarding and upskilling.</li>
      </ul>
      <h2>How we work</h2>
      <p>
        Courses are generated on demand and stored in your account, so they are yours to revisit at
        any time. We keep only the data needed to run the service, as the{' '}
        <a href="/privacy">Privacy Policy</a> explains, and the free plan stays free.
      </p>
      <ContactCta text="Want to know more or work with us?" />
    </div>
  );
}

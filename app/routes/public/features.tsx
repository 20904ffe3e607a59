import type { MetaFunction } from '@remix-run/node';
import { ContactCta } from '~/components/contact-cta';
import publicStyles from '~/styles/public.css?url';
import { pageMeta } from '~/utils/meta';

export const links = () => [{ rel: 'stylesheet', href: publicStyles }];

export const meta: MetaFunction = ({ matches }) =>
  pageMeta(matches, {
    title: 'Features',
    description:
      'AI-written outlines and lessons, theory with images or video with theory, progress tracking and completion certificates.',
  });

const FEATURES = [
  {
    title: 'AI course outlines',
    text: 'Enter a title and up to five sub-topics; the AI drafts a structured outline of topics and sub-topics you can review before anything is written.',
  },
  {
    title: 'Theory & Image courses',
    text: 'Each lesson is clear, well-structured theory with a matching image, written for the level of a newcomer to the subject.',
  },
  {
    title: 'Video & Theory courses',
    text: 'On a paid plan, each lesson pairs a hand-picked video with theory based on it, so you can watch and read side by side.',
  },
  {
    title: '5 or 10 topics',
    text: 'Free courses cover five topics; paid plans go deeper with ten.',
  },
  {
    title: 'Progress tracking',
    text: 'Lessons are marked done as you study, and a progress circle shows how far along each course you are.',
  },
  {
    title: 'Completion certificates',
    text: 'Finish every lesson to earn a certificate with your name, the course title and the date, ready to download or share.',
  },
  {
    title: 'Unlimited courses',
    text: 'There is no cap on the number of courses on any plan; build a library of everything you want to learn.',
  },
  {
    title: 'Light and dark themes',
    text: 'Study comfortably at any hour: switch themes from the header and the choice is remembered.',
  },
];

export default function Features() {
  return (
    <div className="page">
      <header className="page-intro">
        <h1>Features</h1>
        <p className="lead">
          Everything you need to turn a course title into a course you can study, track and finish.
        </p>
      </header>
      <ul className="feature-grid">
        {FEATURES.map((feature) => (
          <li key={feature.title} className="feature">
            <h2>{feature.title}</h2>
            <p>{feature.text}</p>
          </li>
        ))}
      </ul>
      <ContactCta text="Have a question about a feature? Ask us." />
    </div>
  );
}

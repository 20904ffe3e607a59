import type { MetaFunction } from '@remix-run/node';
import { Link } from '@remix-run/react';

export const meta: MetaFunction = () => [
  { title: 'CourseGen: generate a whole course from one title' },
  {
    name: 'description',
    content:
      'Type a course title and CourseGen writes the outline and every lesson, with images or videos.',
  },
];

export default function Landing() {
  return (
    <section className="hero">
      <h1>Generate a course on anything</h1>
      <p>Type a title, pick your sub-topics, and let AI write every lesson for you.</p>
      <div className="actions">
        <Link to="/signin" className="button">
          SignIn
        </Link>
        <Link to="/signup" className="button primary">
          SignUp
        </Link>
      </div>
    </section>
  );
}

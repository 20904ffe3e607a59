import { Form, Link, NavLink } from '@remix-run/react';
import { isAdminRole } from '~/domain/roles';
import type { PublicUser } from '~/models/users.server';
import type { Theme } from '~/utils/theme';
import { ThemeToggle } from './theme-toggle';

export function SiteHeader({ user, theme }: { user: PublicUser | null; theme: Theme }) {
  return (
    <header className="site-header">
      <Link to={user ? '/home' : '/'} className="brand" aria-label="CourseGen home">
        <img src="/logo.svg" alt="" width={32} height={32} />
        <span>CourseGen</span>
      </Link>
      <nav aria-label="Main" className="site-nav">
        {user ? (
          <>
            <NavLink to="/home">Home</NavLink>
            <NavLink to="/profile">Profile</NavLink>
            <NavLink to="/pricing">Pricing</NavLink>
            {isAdminRole(user.role) ? <NavLink to="/dashboard">Admin</NavLink> : null}
            <Form method="post" action="/logout" className="inline-form">
              <button type="submit" className="link-button">
                Logout
              </button>
            </Form>
            <Link to="/create" className="button primary">
              Generate Course
            </Link>
          </>
        ) : (
          <>
            <NavLink to="/pricing">Pricing</NavLink>
            <NavLink to="/features">Features</NavLink>
            <NavLink to="/signin">SignIn</NavLink>
            <Link to="/signup" className="button primary">
              SignUp
            </Link>
          </>
        )}
        <ThemeToggle theme={theme} />
      </nav>
    </header>
  );
}

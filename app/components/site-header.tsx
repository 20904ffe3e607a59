import { Form, Link, NavLink } from '@remix-run/react';
import { isAdminRole } from '~/domain/roles';
import type { Brand } from '~/domain/brand';
import type { PublicUser } from '~/models/users.server';
import type { Theme } from '~/utils/theme';
import { ThemeToggle } from './theme-toggle';

export function SiteHeader({
  user,
  theme,
  brand,
}: {
  user: PublicUser | null;
  theme: Theme;
  /** Absent only when the root loader itself failed: the product's own name and logo. */
  brand: Brand | undefined;
}) {
  const name = brand?.name ?? 'CourseGen';
  return (
    <header className="site-header">
      <Link to={user ? '/home' : '/'} className="brand" aria-label={`${name} home`}>
        <img
          src={brand?.logoUrl ?? '/logo.svg'}
          alt=""
          width={32}
          height={32}
          data-testid="site-logo"
        />
        <span>{name}</span>
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

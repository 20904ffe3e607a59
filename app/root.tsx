import {
  data as withHeaders,
  type LinksFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from '@remix-run/node';
import {
  isRouteErrorResponse,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLoaderData,
  useRouteError,
  useRouteLoaderData,
} from '@remix-run/react';
import { useEffect, type ReactNode } from 'react';
import { DemoBanner } from './components/demo-banner';
import { NotFound } from './components/not-found';
import { useNonce } from './components/nonce';
import { SiteFooter } from './components/site-footer';
import { SiteHeader } from './components/site-header';
import { showToast, Toaster } from './components/toaster';
import { toPublicUser, type PublicUser } from './models/users.server';
import appStyles from './styles/app.css?url';
import scriptFonts from './styles/script-fonts.css?url';
import { getSessionUser } from './utils/auth.server';
import { publicEnv } from './utils/env.server';
import { brand } from './services/brand.server';
import { accentStyle, type Brand } from './domain/brand';
import { getTheme, type Theme } from './utils/theme.server';
import { takeToast } from './utils/toast.server';

export const links: LinksFunction = () => [
  { rel: 'stylesheet', href: appStyles },
  { rel: 'stylesheet', href: scriptFonts },
  { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
];

export const meta: MetaFunction = ({ data }) => {
  const name = (data as RootData | undefined)?.brand.name ?? 'CourseGen';
  return [
    { title: `${name}: AI course generator` },
    {
      name: 'description',
      content: `Type a course title and ${name} writes the outline and every lesson for you.`,
    },
  ];
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [theme, user, { toast: pendingToast, header }, siteBrand] = await Promise.all([
    getTheme(request),
    getSessionUser(request, context),
    takeToast(request),
    brand(),
  ]);
  return withHeaders(
    {
      theme,
      user: user ? toPublicUser(user) : null,
      toast: pendingToast,
      env: publicEnv(),
      brand: siteBrand,
      refusedBody: context.refusedBody?.message ?? null,
    },
    {
      headers: header ? { 'Set-Cookie': header } : undefined,
      // The page's form was too large to read (server/app.ts): the page again, with the reason.
      status: context.refusedBody ? 413 : undefined,
    },
  );
}

export interface RootData {
  theme: Theme;
  user: PublicUser | null;
  toast: { type: 'success' | 'error' | 'info'; message: string } | null;
  env: ReturnType<typeof publicEnv>;
  /** The operator's name, logo, accent and support email (ADR 0062), on every page. */
  brand: Brand;
  /** Why the form just posted was refused unread (too large), shown above the page. */
  refusedBody: string | null;
}

/** The root loader's data anywhere in the tree (signed-in user, theme, demo flag). */
export function useRootData(): RootData | undefined {
  return useRouteLoaderData<RootData>('root');
}

function Document({
  children,
  theme,
  accent,
}: {
  children: ReactNode;
  theme: Theme;
  accent: string | null;
}) {
  const nonce = useNonce();
  const accentCss = accentStyle(accent);
  return (
    <html lang="en" data-theme={theme} className={theme === 'dark' ? 'dark' : undefined}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content={theme === 'dark' ? 'dark' : 'light'} />
        <Meta />
        <Links />
        {/* After the stylesheets, so the brand's accent wins; a validated hex colour only. */}
        {accentCss ? <style dangerouslySetInnerHTML={{ __html: accentCss }} /> : null}
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

function Chrome({ data, children }: { data: RootData | undefined; children: ReactNode }) {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      {data?.env.demo ? <DemoBanner /> : null}
      <SiteHeader user={data?.user ?? null} theme={data?.theme ?? 'light'} brand={data?.brand} />
      <main id="main">
        {data?.refusedBody ? (
          <p className="error-text page-alert" role="alert">
            {data.refusedBody}
          </p>
        ) : null}
        {children}
      </main>
      <SiteFooter brand={data?.brand} />
      <Toaster theme={data?.theme ?? 'light'} />
    </>
  );
}

export default function App() {
  const data = useLoaderData<RootData>();
  useEffect(() => {
    if (data.toast) showToast(data.toast.type, data.toast.message);
  }, [data.toast]);
  return (
    <Document theme={data.theme} accent={data.brand.accent}>
      <Chrome data={data}>
        <Outlet />
      </Chrome>
    </Document>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const data = useRootData();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  return (
    <Document theme={data?.theme ?? 'light'} accent={data?.brand.accent ?? null}>
      <Chrome data={data}>
        {notFound ? (
          <NotFound theme={data?.theme ?? 'light'} />
        ) : (
          <section className="page narrow center">
            <h1>Something went wrong</h1>
            <p>Please try again in a moment.</p>
          </section>
        )}
      </Chrome>
    </Document>
  );
}

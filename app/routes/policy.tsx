import type { LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { PolicyArticle } from '~/components/policy-article';
import { POLICY_PAGES, type PolicyPage } from '~/domain/policy-pages';
import { getPublicPolicy } from '~/models/policies.server';
import publicStyles from '~/styles/public.css?url';
import { pageMeta } from '~/utils/meta';

/** The five policy pages are this one module, registered once per path in app/routes.ts. */
function pageAt(pathname: string): PolicyPage {
  const page = Object.values(POLICY_PAGES).find((candidate) => candidate.path === pathname);
  if (!page) throw new Response('Not Found', { status: 404 });
  return page;
}

export const links = () => [{ rel: 'stylesheet', href: publicStyles }];

export async function loader({ request }: LoaderFunctionArgs) {
  const page = pageAt(new URL(request.url).pathname);
  return { page, html: await getPublicPolicy(page.key) };
}

export const meta: MetaFunction<typeof loader> = ({ matches, data }) =>
  data ? pageMeta(matches, data.page) : [];

export default function PolicyRoute() {
  const { page, html } = useLoaderData<typeof loader>();
  return <PolicyArticle title={page.title} html={html} />;
}

import type { MetaFunction } from '@remix-run/node';
import { useLoaderData } from '@remix-run/react';
import { PolicyArticle } from '~/components/policy-article';
import { POLICY_PAGES } from '~/domain/policy-pages';
import publicStyles from '~/styles/public.css?url';
import { pageMeta } from '~/utils/meta';
import { policyLoader } from '~/utils/policy-route.server';

const page = POLICY_PAGES.cancel;

export const links = () => [{ rel: 'stylesheet', href: publicStyles }];
export const meta: MetaFunction = ({ matches }) => pageMeta(matches, page);
export const loader = policyLoader('cancel');

export default function CancellationPolicy() {
  const { html } = useLoaderData<typeof loader>();
  return <PolicyArticle title={page.title} html={html} />;
}

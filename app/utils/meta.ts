import type { MetaDescriptor } from '@remix-run/node';

interface MatchLike {
  id: string;
  data?: unknown;
}

/** The product name as the self-hoster set it (COMPANY_NAME), from the root loader. */
function companyName(matches: readonly MatchLike[]): string {
  const root = matches.find((match) => match.id === 'root')?.data as
    { env?: { companyName?: string } } | undefined;
  return root?.env?.companyName ?? 'CourseGen';
}

/**
 * A page's title and description for search engines and link previews. Remix
 * uses only the deepest route's meta, so every page states all of it.
 */
export function pageMeta(
  matches: readonly MatchLike[],
  page: { title: string; description: string; noIndex?: boolean },
): MetaDescriptor[] {
  const name = companyName(matches);
  const title = page.title === name ? name : `${page.title} | ${name}`;
  return [
    { title },
    { name: 'description', content: page.description },
    { property: 'og:title', content: title },
    { property: 'og:description', content: page.description },
    { property: 'og:type', content: 'website' },
    { property: 'og:site_name', content: name },
    { name: 'twitter:card', content: 'summary' },
    ...(page.noIndex ? [{ name: 'robots', content: 'noindex' }] : []),
  ];
}

import type { MetaDescriptor } from '@remix-run/node';

interface MatchLike {
  id: string;
  data?: unknown;
}

/** The site's name as the operator set it (ADR 0062), from the root loader. */
export function siteName(matches: readonly MatchLike[]): string {
  const root = matches.find((match) => match.id === 'root')?.data as
    { brand?: { name?: string } } | undefined;
  return root?.brand?.name ?? 'CourseGen';
}

/**
 * A page's title and description for search engines and link previews. Remix
 * uses only the deepest route's meta, so every page states all of it.
 */
export function pageMeta(
  matches: readonly MatchLike[],
  page: { title: string; description: string; noIndex?: boolean },
): MetaDescriptor[] {
  const name = siteName(matches);
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

import { http, HttpResponse } from 'msw';
import { readKnobs, stableHash } from './knobs';

/**
 * Unsplash search API (GET /search/photos) in its real wire format. The photo
 * URLs point at the product's own demo images, so demo mode looks right offline.
 * MOCK_MEDIA_FAIL makes it answer 503.
 */
const UNSPLASH_URL = 'https://api.unsplash.com';
const PHOTOGRAPHERS = ['Ada Lens', 'Grace Shutter', 'Alan Aperture', 'Linus Frame'];

export const unsplashHandlers = [
  http.get(`${UNSPLASH_URL}/search/photos`, ({ request }) => {
    if (!/^Client-ID \S+/.test(request.headers.get('Authorization') ?? ''))
      return HttpResponse.json(
        { errors: ['OAuth error: The access token is invalid'] },
        { status: 401 },
      );
    if (readKnobs().mediaFail)
      return HttpResponse.json({ errors: ['Service unavailable'] }, { status: 503 });
    const query = new URL(request.url).searchParams.get('query') ?? '';
    if (!query.trim()) return HttpResponse.json({ total: 0, total_pages: 0, results: [] });
    const n = stableHash(query) % 4;
    const id = `mock${stableHash(query).toString(36)}`;
    const name = PHOTOGRAPHERS[n]!;
    const username = name.toLowerCase().replace(/\s+/g, '');
    const src = `/images/demo/photo-${n + 1}.png`;
    return HttpResponse.json({
      total: 1,
      total_pages: 1,
      results: [
        {
          id,
          alt_description: query,
          urls: { raw: src, full: src, regular: src, small: src, thumb: src },
          links: {
            html: `https://unsplash.com/photos/${id}`,
            download_location: `${UNSPLASH_URL}/photos/${id}/download`,
          },
          user: { name, username, links: { html: `https://unsplash.com/@${username}` } },
        },
      ],
    });
  }),
];

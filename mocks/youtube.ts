import { http, HttpResponse } from 'msw';
import { readKnobs, stableHash } from './knobs';

/**
 * YouTube Data API v3 search, and the transcript source: a video's watch page
 * (whose player data lists its caption tracks) and the timed-text track itself.
 * MOCK_MEDIA_FAIL makes the search answer 503; MOCK_TRANSCRIPT_UNAVAILABLE
 * leaves videos without captions, as YouTube usually answers a server.
 */
const YOUTUBE_API_URL = 'https://www.googleapis.com/youtube/v3';
const YOUTUBE_URL = 'https://www.youtube.com';

function mockVideoId(query: string): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
  let value = stableHash(query) * 7919 + stableHash(`${query}!`);
  let id = '';
  for (let i = 0; i < 11; i += 1) {
    id += alphabet[value % 64];
    value = Math.floor(value / 64) + stableHash(`${query}${i}`);
  }
  return id;
}

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/'/g, '&#39;');

export const youtubeHandlers = [
  http.get(`${YOUTUBE_API_URL}/search`, ({ request }) => {
    const params = new URL(request.url).searchParams;
    if (!params.get('key'))
      return HttpResponse.json(
        { error: { code: 403, message: 'The request is missing a valid API key.' } },
        { status: 403 },
      );
    if (params.get('videoEmbeddable') && params.get('type') !== 'video')
      return HttpResponse.json(
        { error: { code: 400, message: 'videoEmbeddable requires type=video' } },
        { status: 400 },
      );
    if (readKnobs().mediaFail)
      return HttpResponse.json({ error: { code: 503, message: 'Backend Error' } }, { status: 503 });
    const query = params.get('q') ?? '';
    const videoId = mockVideoId(query);
    return HttpResponse.json({
      kind: 'youtube#searchListResponse',
      pageInfo: { totalResults: 1, resultsPerPage: 1 },
      items: [
        {
          kind: 'youtube#searchResult',
          id: { kind: 'youtube#video', videoId },
          snippet: { title: query, channelTitle: 'Mock Academy', description: `About ${query}` },
        },
      ],
    });
  }),
  http.get(`${YOUTUBE_URL}/watch`, ({ request }) => {
    const videoId = new URL(request.url).searchParams.get('v') ?? '';
    const captions = readKnobs().transcriptUnavailable
      ? ''
      : `"captions":{"playerCaptionsTracklistRenderer":{"captionTracks":[{"baseUrl":"${YOUTUBE_URL}/api/timedtext?v=${videoId}\\u0026lang=en","name":{"simpleText":"English"},"languageCode":"en"}]}},`;
    return HttpResponse.html(
      `<!doctype html><html><body><script>var ytInitialPlayerResponse = {"playabilityStatus":{"status":"OK"},${captions}"videoDetails":{"videoId":"${videoId}"}};</script></body></html>`,
    );
  }),
  http.get(`${YOUTUBE_URL}/api/timedtext`, ({ request }) => {
    const videoId = new URL(request.url).searchParams.get('v') ?? '';
    const lines = [
      `Welcome to this lesson, video ${videoId}.`,
      "Today we'll look at the main idea & a worked example.",
      'Remember to practise what you learn.',
    ];
    const body = lines
      .map((line, i) => `<text start="${i * 3}" dur="3">${escapeXml(line)}</text>`)
      .join('');
    return HttpResponse.xml(
      `<?xml version="1.0" encoding="utf-8" ?><transcript>${body}</transcript>`,
    );
  }),
];

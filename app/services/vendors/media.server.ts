import { env } from '~/utils/env.server';
import { log } from '~/utils/logger.server';

/**
 * Images (Unsplash search API), videos (YouTube Data API v3 search, embeddable
 * videos only) and transcripts (the caption track listed on a video's watch
 * page). Each call either answers, answers "nothing found" (null), or throws
 * `MediaError` when the vendor failed: the caller retries later. In demo mode
 * the mocks in `mocks/unsplash.ts` and `mocks/youtube.ts` answer.
 */
class MediaError extends Error {
  override name = 'MediaError';
}

/** The video exists but no transcript can be had: use a plain explanation instead. */
class TranscriptUnavailableError extends Error {
  override name = 'TranscriptUnavailableError';
}

const UNSPLASH_API = 'https://api.unsplash.com';
const YOUTUBE_API = 'https://www.googleapis.com/youtube/v3';
const YOUTUBE = 'https://www.youtube.com';
const TIMEOUT_MS = 15_000;
const UTM = 'utm_source=coursegen&utm_medium=referral';

export interface Image {
  url: string;
  /** The photographer, linked as Unsplash's guidelines ask. */
  credit: { name: string; url: string };
}

function keyFor(vendor: 'unsplash' | 'youtube'): string | undefined {
  const config = env();
  const key = vendor === 'unsplash' ? config.UNSPLASH_ACCESS_KEY : config.YOUTUBE_API_KEY;
  return key ?? (config.mocked[vendor] ? 'demo-mode-key' : undefined);
}

async function getJson(url: string, init: RequestInit = {}): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (error) {
    throw new MediaError(`${new URL(url).host} did not answer: ${String(error)}`);
  }
  if (!response.ok) throw new MediaError(`${new URL(url).host} answered ${response.status}`);
  return response.json();
}

interface UnsplashSearch {
  results?: {
    urls?: { regular?: string };
    user?: { name?: string; links?: { html?: string } };
  }[];
}

/** The best photo for a query, or null when there is none (or no key is configured). */
export async function searchImage(query: string): Promise<Image | null> {
  const key = keyFor('unsplash');
  if (!key) return null;
  const params = new URLSearchParams({
    query: query.slice(0, 200),
    per_page: '1',
    orientation: 'landscape',
    content_filter: 'high',
  });
  const body = (await getJson(`${UNSPLASH_API}/search/photos?${params}`, {
    headers: { Authorization: `Client-ID ${key}`, 'Accept-Version': 'v1' },
  })) as UnsplashSearch;
  const photo = body.results?.[0];
  const url = photo?.urls?.regular;
  if (!url) return null;
  const profile = photo.user?.links?.html ?? 'https://unsplash.com';
  return {
    url,
    credit: {
      name: photo.user?.name ?? 'Unsplash',
      url: `${profile}${profile.includes('?') ? '&' : '?'}${UTM}`,
    },
  };
}

interface YoutubeSearch {
  items?: { id?: { kind?: string; videoId?: string } }[];
}

/** The id of an embeddable video for a query, or null. */
export async function searchVideo(query: string): Promise<string | null> {
  const key = keyFor('youtube');
  if (!key) return null;
  const params = new URLSearchParams({
    part: 'snippet',
    type: 'video',
    videoEmbeddable: 'true',
    maxResults: '1',
    q: query.slice(0, 200),
    key,
  });
  const body = (await getJson(`${YOUTUBE_API}/search?${params}`)) as YoutubeSearch;
  const id = body.items?.find((item) => item.id?.videoId)?.id?.videoId;
  return id && /^[\w-]{6,20}$/.test(id) ? id : null;
}

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
  '&apos;': "'",
};

function decodeXmlText(text: string): string {
  return text
    .replace(/&(amp|lt|gt|quot|apos|#39);/g, (entity) => ENTITIES[entity] ?? entity)
    .replace(/&#(\d+);/g, (_, code: string) => String.fromCodePoint(Number(code)))
    .replace(/<[^>]+>/g, '');
}

export interface TranscriptItem {
  text: string;
  offset: number;
  duration: number;
}

/**
 * A video's captions, read the way a browser gets them: the watch page lists
 * its caption tracks and the first English (else first) track is fetched.
 * YouTube often refuses servers this; then `TranscriptUnavailableError`.
 */
export async function fetchTranscript(videoId: string): Promise<TranscriptItem[]> {
  if (!/^[\w-]{6,20}$/.test(videoId)) throw new TranscriptUnavailableError('Not a video id');
  let page: string;
  try {
    const response = await fetch(`${YOUTUBE}/watch?v=${encodeURIComponent(videoId)}`, {
      headers: { 'Accept-Language': 'en' },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`status ${response.status}`);
    page = await response.text();
  } catch (error) {
    throw new TranscriptUnavailableError(`The watch page did not answer: ${String(error)}`);
  }
  const tracksJson = /"captionTracks":(\[.*?\])/.exec(page)?.[1];
  if (!tracksJson) throw new TranscriptUnavailableError('The video has no captions');
  let tracks: { baseUrl?: string; languageCode?: string }[];
  try {
    tracks = JSON.parse(tracksJson) as typeof tracks;
  } catch {
    throw new TranscriptUnavailableError('The caption list could not be read');
  }
  const track = tracks.find((t) => t.languageCode?.startsWith('en')) ?? tracks[0];
  if (!track?.baseUrl?.startsWith(YOUTUBE))
    throw new TranscriptUnavailableError('The video has no caption track');
  let xml: string;
  try {
    const response = await fetch(track.baseUrl, { signal: AbortSignal.timeout(TIMEOUT_MS) });
    if (!response.ok) throw new Error(`status ${response.status}`);
    xml = await response.text();
  } catch (error) {
    throw new TranscriptUnavailableError(`The caption track did not answer: ${String(error)}`);
  }
  const items = [...xml.matchAll(/<text start="([\d.]+)" dur="([\d.]+)"[^>]*>([\s\S]*?)<\/text>/g)]
    .map((m) => ({
      offset: Number(m[1]),
      duration: Number(m[2]),
      text: decodeXmlText(m[3] ?? '').trim(),
    }))
    .filter((item) => item.text.length > 0);
  if (items.length === 0) throw new TranscriptUnavailableError('The transcript is empty');
  return items;
}

/** The transcript as one text, or null when it cannot be had (logged, never thrown). */
export async function transcriptText(videoId: string): Promise<string | null> {
  try {
    return (await fetchTranscript(videoId)).map((item) => item.text).join(' ');
  } catch (error) {
    log.info('media.transcript_unavailable', { videoId, reason: String(error) });
    return null;
  }
}

/** Search queries, as the original product built them. */
export const imageQuery = (lesson: string, mainTopic: string) =>
  `Example of ${lesson} in ${mainTopic}`;
export const videoQuery = (lesson: string, mainTopic: string) =>
  `${lesson} ${mainTopic} in English`;

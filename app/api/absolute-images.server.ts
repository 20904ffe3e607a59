import type { RequestLike } from '~/utils/json-route.server';
import { absoluteUrl, providerReturnBase } from '~/utils/public-url.server';

/**
 * A course record's images as an API client on another origin can load them (ADR 0057): the
 * card `photo` and every lesson's `image` in `content` made absolute. Stored addresses stay
 * relative (the pages use them on whatever address the member opened); only the API's answer
 * changes. In the content's JSON text an unescaped `"image":"/` can only be a lesson's image
 * key and value (a quote inside a string value is always escaped), so a text replace is exact and
 * spares parsing megabytes again.
 */
export function withAbsoluteImages<R extends { photo: string; content?: string }>(
  record: R,
  request: RequestLike,
): R {
  const base = providerReturnBase(request);
  return {
    ...record,
    photo: absoluteUrl(record.photo, request),
    ...(record.content !== undefined
      ? { content: record.content.replace(/"image":"\/(?!\/)/g, `"image":"${base}/`) }
      : {}),
  };
}

import type { RequestHandler } from 'msw';
import { anthropicHandlers } from './anthropic';
import { openaiHandlers } from './openai';
import { paypalHandlers } from './paypal';
import { razorpayHandlers } from './razorpay';
import { unsplashHandlers } from './unsplash';
import { youtubeHandlers } from './youtube';

/** The HTTP mocks of every vendor, one file each; `mocked` says which ones to answer. */
export type Vendor = 'anthropic' | 'openai' | 'unsplash' | 'youtube' | 'paypal' | 'razorpay';

const vendorHandlers: Record<Vendor, RequestHandler[]> = {
  anthropic: anthropicHandlers,
  openai: openaiHandlers,
  unsplash: unsplashHandlers,
  youtube: youtubeHandlers,
  paypal: paypalHandlers,
  razorpay: razorpayHandlers,
};

export function handlersFor(mocked: Record<Vendor, boolean>): RequestHandler[] {
  return (Object.keys(vendorHandlers) as Vendor[])
    .filter((vendor) => mocked[vendor])
    .flatMap((vendor) => vendorHandlers[vendor]);
}

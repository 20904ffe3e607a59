import type { AppLoadContext } from '@remix-run/node';
import { createContact, parseContact } from '~/models/contacts.server';
import { log } from './logger.server';
import { clientIp, hit, type RateLimit } from './rate-limit.server';
import { readBody } from './validation.server';

/** A person sends a message or two; five an hour from one address is plenty. */
export const CONTACT_RATE_LIMIT: RateLimit = { name: 'contact:ip', max: 5, windowSeconds: 60 * 60 };

export const CONTACT_SENT_MESSAGE = 'Thank you! Your message has been sent.';

export interface ContactOutcome {
  status: 200 | 400 | 429 | 500;
  body: { success: boolean; message: string };
  headers?: Record<string, string>;
}

/**
 * One submission of the contact form, from the page (form data) or an API
 * client (JSON): validate, count it against the sender's address, store it.
 * Only well-formed messages count, so a typo never locks a person out.
 */
export async function submitContact(
  request: Request,
  context: AppLoadContext,
): Promise<ContactOutcome> {
  const parsed = parseContact(await readBody(request));
  if (!parsed.ok) return { status: 400, body: { success: false, message: parsed.message } };

  const limit = await hit(CONTACT_RATE_LIMIT, clientIp(context));
  if (!limit.allowed) {
    const minutes = Math.ceil(limit.retryAfterSeconds / 60);
    return {
      status: 429,
      body: {
        success: false,
        message: `You have sent too many messages. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      },
      headers: { 'Retry-After': String(limit.retryAfterSeconds) },
    };
  }

  try {
    const contact = createContact(parsed.data);
    log.info('contact.created', { contactId: contact.id });
    return { status: 200, body: { success: true, message: CONTACT_SENT_MESSAGE } };
  } catch (error) {
    log.error('contact.failed', { error });
    return { status: 500, body: { success: false, message: 'Internal Server Error' } };
  }
}

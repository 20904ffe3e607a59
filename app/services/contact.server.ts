import { z } from 'zod';
import { CONTACT_LIMITS } from '~/domain/contact-limits';
import { fail, ok, type Result } from '~/domain/result';
import { createContact } from '~/models/contacts.server';
import { log } from '~/utils/logger.server';
import { INVALID_EMAIL_MESSAGE } from '~/utils/messages';
import { hit, type RateLimit } from '~/utils/rate-limit.server';
import { cleanText, filledIn, parseWith } from '~/utils/validation.server';

/** A person sends a message or two; five an hour from one address is plenty. */
const CONTACT_RATE_LIMIT: RateLimit = { name: 'contact:ip', max: 5, windowSeconds: 60 * 60 };

const CONTACT_SENT_MESSAGE = 'Thank you! Your message has been sent.';

const INVALID_PHONE_MESSAGE = `Please enter a phone number of ${CONTACT_LIMITS.phoneMin} to ${CONTACT_LIMITS.phoneMax} digits, digits only`;

/** Step one: every field present and not blank (the product's one message for all of them). */
const present = filledIn(20_000);
const requiredFields = z.object({
  fname: present,
  lname: present,
  email: present,
  phone: present,
  msg: present,
});

/** Bounded, and free of characters that hide or disguise text; only the message spans lines. */
const atMost = (label: string, max: number, singleLine = true) =>
  z
    .string()
    .max(max, `${label} must be at most ${max} characters`)
    .pipe(cleanText({ label, singleLine }));

/** Step two: the shape and length of each value, with a message naming the field. */
const wellFormed = z.object({
  fname: atMost('First Name', CONTACT_LIMITS.name),
  lname: atMost('Last Name', CONTACT_LIMITS.name),
  email: atMost('Email', CONTACT_LIMITS.email).pipe(z.email(INVALID_EMAIL_MESSAGE)),
  phone: z
    .string()
    .regex(
      new RegExp(`^\\d{${CONTACT_LIMITS.phoneMin},${CONTACT_LIMITS.phoneMax}}$`),
      INVALID_PHONE_MESSAGE,
    ),
  msg: atMost('Message', CONTACT_LIMITS.message, false),
});

type ContactInput = z.infer<typeof wellFormed>;

/**
 * A contact message in the API's field names (fname, lname, email, phone, msg): a missing field
 * always reports 'Please fill in all required fields' first (the pipe stops there), whatever
 * else is wrong.
 */
export const contactSchema = requiredFields.pipe(wellFormed);

function parseContact(body: unknown): Result<ContactInput> {
  return parseWith(contactSchema, body);
}

/**
 * One submission of the contact form, from the page (form data) or an API
 * client (JSON): validate, count it against the sender's address, store it.
 * Only well-formed messages count, so a typo never locks a person out.
 */
export async function submitContact(
  body: Record<string, unknown>,
  ip: string,
): Promise<Result<{ message: string }>> {
  const parsed = parseContact(body);
  if (!parsed.ok) return parsed;

  const limit = await hit(CONTACT_RATE_LIMIT, ip);
  if (!limit.allowed) {
    const minutes = Math.ceil(limit.retryAfterSeconds / 60);
    return fail(
      `You have sent too many messages. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
      429,
      limit.retryAfterSeconds,
    );
  }

  const contact = await createContact(parsed.value);
  log.info('contact.created', { contactId: contact.id });
  return ok({ message: CONTACT_SENT_MESSAGE });
}

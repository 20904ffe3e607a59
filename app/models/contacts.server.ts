import { desc } from 'drizzle-orm';
import { z } from 'zod';
import { contacts } from '../../db/schema';
import { db } from '~/utils/db.server';
import { newId } from '~/utils/ids.server';
import { parseWith, requiredText, type Parsed } from '~/utils/validation.server';
import { CONTACT_LIMITS } from './contact-limits';
import { INVALID_EMAIL_MESSAGE } from '~/utils/messages';

export { CONTACT_LIMITS };

export type Contact = typeof contacts.$inferSelect;

export const INVALID_PHONE_MESSAGE = `Please enter a phone number of ${CONTACT_LIMITS.phoneMin} to ${CONTACT_LIMITS.phoneMax} digits, digits only`;

/** Step one: every field present and not blank (the spec's one message for all of them). */
const present = requiredText(20_000);
const requiredFields = z.object({
  fname: present,
  lname: present,
  email: present,
  phone: present,
  msg: present,
});

const atMost = (label: string, max: number) =>
  z.string().max(max, `${label} must be at most ${max} characters`);

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
  msg: atMost('Message', CONTACT_LIMITS.message),
});

export type ContactInput = z.infer<typeof wellFormed>;

/**
 * Validates a contact message in the spec's field names (fname, lname, email,
 * phone, msg). A missing field always reports 'Please fill in all required
 * fields' first, whatever else is wrong.
 */
export function parseContact(body: unknown): Parsed<ContactInput> {
  const present = parseWith(requiredFields, body);
  if (!present.ok) return present;
  return parseWith(wellFormed, present.data);
}

export function createContact(input: ContactInput): Contact {
  return db()
    .insert(contacts)
    .values({
      id: newId(),
      firstName: input.fname,
      lastName: input.lname,
      email: input.email.toLowerCase(),
      phone: input.phone,
      message: input.msg,
    })
    .returning()
    .get();
}

/** Newest first, for the admin Contacts table. */
export function listContacts(): Contact[] {
  return db().select().from(contacts).orderBy(desc(contacts.createdAt)).all();
}

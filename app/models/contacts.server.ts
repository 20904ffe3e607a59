import type { contacts } from '../../db/schema';
import { database, tables } from '~/utils/database.server';
import { newId } from '~/utils/ids.server';

export type Contact = typeof contacts.$inferSelect;

/** The message as the member typed it, in the API's field names. */
export interface NewContact {
  fname: string;
  lname: string;
  email: string;
  phone: string;
  msg: string;
}

export async function createContact(input: NewContact): Promise<Contact> {
  const { contacts } = tables;
  const [row] = await database()
    .insert(contacts)
    .values({
      id: newId(),
      firstName: input.fname,
      lastName: input.lname,
      email: input.email.toLowerCase(),
      phone: input.phone,
      message: input.msg,
    })
    .returning();
  return row!;
}

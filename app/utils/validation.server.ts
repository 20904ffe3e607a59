import { z } from 'zod';
import { forbiddenCharactersMessage, hasForbiddenCharacters } from './text';
import { fail, ok, type Result } from '~/domain/result';
import { REQUIRED_FIELDS_MESSAGE } from './messages';

export { REQUIRED_FIELDS_MESSAGE };

/** A 400 whose JSON body carries the product's `success: false` and a message a person can read. */
export function badRequest(message: string, extra: Record<string, unknown> = {}) {
  return Response.json({ success: false, message, ...extra }, { status: 400 });
}

/** The first issue's message: schemas put the product's wording on each rule. */
function firstMessage(error: z.ZodError): string {
  return error.issues[0]?.message ?? REQUIRED_FIELDS_MESSAGE;
}

/**
 * Reads a request body as JSON (API clients) or form data (pages), so one
 * action serves both. A body that cannot be read is an empty object, which the
 * schema then rejects with its message.
 */
export async function readBody(request: Request): Promise<Record<string, unknown>> {
  const type = request.headers.get('Content-Type') ?? '';
  try {
    if (type.includes('application/json')) {
      const value: unknown = await request.json();
      return value && typeof value === 'object' && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : {};
    }
    return fieldsOf(await request.formData());
  } catch {
    return {};
  }
}

/** A form's text fields as readBody gives them (a file field reads as ''). */
function fieldsOf(form: FormData): Record<string, unknown> {
  return Object.fromEntries(
    [...form.keys()].map((key) => {
      const values = form.getAll(key).map((v) => (typeof v === 'string' ? v : ''));
      return [key, values.length > 1 ? values : values[0]];
    }),
  );
}

/**
 * readBody for a form that may carry a file (multipart): the text fields, and the file sent as
 * `fileField` when one was. The body's size was bounded before (body-limit.server.ts).
 */
export async function readBodyWithFile(
  request: Request,
  fileField: string,
): Promise<{ body: Record<string, unknown>; file: File | null }> {
  const type = request.headers.get('Content-Type') ?? '';
  if (!type.includes('multipart/form-data')) return { body: await readBody(request), file: null };
  try {
    const form = await request.formData();
    const file = form.get(fileField);
    return { body: fieldsOf(form), file: file instanceof File ? file : null };
  } catch {
    return { body: {}, file: null };
  }
}

/** Parses a body with a schema; on failure a 400 with the message to show (never throws). */
export function parseWith<S extends z.ZodType>(schema: S, body: unknown): Result<z.infer<S>> {
  // A body that is not an object at all is treated as one with every field missing.
  const result = schema.safeParse(body && typeof body === 'object' ? body : {});
  return result.success ? ok(result.data) : fail(firstMessage(result.error), 400);
}

/** Reads and parses in one go; throws a 400 Response with the message when invalid. */
export async function requireValidBody<S extends z.ZodType>(
  request: Request,
  schema: S,
): Promise<z.infer<S>> {
  const parsed = parseWith(schema, await readBody(request));
  if (!parsed.ok) throw badRequest(parsed.message);
  return parsed.value;
}

/** How a field's text is checked: its name for the message, and whether it is one line. */
export interface TextRules {
  /** Names the field in the message, e.g. "Name contains characters that are not allowed". */
  label?: string;
  /** Names, emails and titles: tabs and line breaks are refused too. */
  singleLine?: boolean;
}

/**
 * Text a member typed: characters that can hide or disguise text refused, then NFC-normalized
 * (one form for the same letters, so equal-looking titles and names compare equal).
 */
export const cleanText = ({ label, singleLine = false }: TextRules = {}) =>
  z
    .string()
    .refine(
      (text) => !hasForbiddenCharacters(text, { singleLine }),
      forbiddenCharactersMessage(label),
    )
    .transform((text) => text.normalize('NFC'));

/** Present, text and not blank, else the product's required-fields message; trimmed. */
export const filledIn = (max = 500) =>
  z
    .string({ error: REQUIRED_FIELDS_MESSAGE })
    .trim()
    .min(1, REQUIRED_FIELDS_MESSAGE)
    .max(max, `Please keep this under ${max} characters`);

/** A required text field: filled in, then cleaned (cleanText). */
export const requiredText = (max = 500, rules: TextRules = {}) =>
  filledIn(max).pipe(cleanText(rules));

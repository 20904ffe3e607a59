import { z } from 'zod';
import { forbiddenCharactersMessage, hasForbiddenCharacters } from './text';
import { fail, ok, type Result } from '~/domain/result';
import { REQUIRED_FIELDS_MESSAGE } from './messages';
import { apiError } from './responses.server';

export { REQUIRED_FIELDS_MESSAGE };

/** A 400 whose JSON body carries the product's `success: false`, a message and its code. */
export function badRequest(message: string, param?: string) {
  return apiError(400, message, { code: 'invalid_request', param });
}

const INVALID_JSON_MESSAGE =
  'The request body is not valid JSON (it says Content-Type: application/json)';

/** The first issue's message: schemas put the product's wording on each rule. */
function firstMessage(error: z.ZodError): string {
  return error.issues[0]?.message ?? REQUIRED_FIELDS_MESSAGE;
}

/** The top-level field the first issue is about, when it is about one (`param` of the error). */
function firstParam(error: z.ZodError): string | undefined {
  const key = error.issues[0]?.path[0];
  return typeof key === 'string' ? key : undefined;
}

/**
 * Reads a request body as JSON (API clients) or form data (pages), so one action serves both. A
 * JSON body that does not parse is refused with its own 400 (`invalid_json`), thrown as a
 * Response, rather than read as empty and answered "Please fill in all required fields"; JSON
 * that is no object, and a form that cannot be read, are an empty object, which the schema then
 * rejects with its message.
 */
export async function readBody(request: Request): Promise<Record<string, unknown>> {
  const type = request.headers.get('Content-Type') ?? '';
  if (type.includes('application/json')) {
    const text = await request.text().catch(() => '');
    let value: unknown = {};
    try {
      if (text.trim() !== '') value = JSON.parse(text);
    } catch {
      throw apiError(400, INVALID_JSON_MESSAGE, { code: 'invalid_json' });
    }
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {};
  }
  try {
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
  if (result.success) return ok(result.data);
  const param = firstParam(result.error);
  return {
    ...fail(firstMessage(result.error), 400),
    code: 'invalid_request',
    ...(param ? { param } : {}),
  };
}

/** Reads and parses in one go; throws a 400 Response with the message when invalid. */
export async function requireValidBody<S extends z.ZodType>(
  request: Request,
  schema: S,
): Promise<z.infer<S>> {
  const parsed = parseWith(schema, await readBody(request));
  if (!parsed.ok) throw badRequest(parsed.message, parsed.param);
  return parsed.value;
}

/** Parses a URL's query with a schema; throws a 400 Response naming the parameter when invalid. */
export function requireValidQuery<S extends z.ZodType>(url: URL, schema: S): z.infer<S> {
  const parsed = parseWith(schema, Object.fromEntries(url.searchParams));
  if (!parsed.ok) throw badRequest(parsed.message, parsed.param);
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

import { DOCUMENT_EXTENSIONS, MATERIAL_MESSAGES, materialRefusal } from '~/domain/material';
import { fail, ok, type Result } from '~/domain/result';
import type { NewMaterial } from '~/models/outlines.server';
import type { User } from '~/models/users.server';
import { extensionOf } from './extract.server';
import { extractMaterialOffThread } from './extract-pool.server';

/**
 * The material a member gives on /create (ADR 0032): a document or pasted text, checked against
 * their plan before a byte of it is read, then read into sections off the request thread. A
 * refusal answers the member's message and creates nothing; the caller stores what this answers
 * with the outline, in one transaction.
 */
export interface MaterialUpload {
  /** The uploaded file, if one was chosen (a browser sends an empty one when none was). */
  file?: File | null;
  pasted?: string;
}

const PASTED_TEXT_NAME = 'Pasted text';

/** A file's name as shown on the member's pages: no folders, no control characters, not too long. */
function displayName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex -- control characters are what is removed
  const clean = base.replace(/[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g, '').trim();
  return (clean || 'document').slice(0, 200);
}

/** What was really given: a chosen file (not the empty one of an untouched input), text not blank. */
function given(upload: MaterialUpload) {
  return {
    file: upload.file && upload.file.size > 0 ? upload.file : null,
    pasted: upload.pasted?.trim() ? upload.pasted : '',
  };
}

/** The member gave material: its sections make the outline, so no sub-topic is needed. */
export function hasMaterial(upload: MaterialUpload): boolean {
  const { file, pasted } = given(upload);
  return Boolean(file || pasted);
}

export async function readMaterial(
  user: Pick<User, 'plan'>,
  upload: MaterialUpload,
): Promise<Result<NewMaterial | undefined>> {
  const { file, pasted } = given(upload);
  if (file && pasted) return fail(MATERIAL_MESSAGES.bothGiven, 400);
  if (!file && !pasted) return ok(undefined);

  if (file) {
    const refused = materialRefusal(user.plan, { kind: 'document', bytes: file.size });
    if (refused) return fail(refused.message, refused.status);
    const name = displayName(file.name);
    if (!DOCUMENT_EXTENSIONS[extensionOf(name)]) return fail(MATERIAL_MESSAGES.unsupported, 415);
    const read = await extractMaterialOffThread({
      name,
      bytes: new Uint8Array(await file.arrayBuffer()),
    });
    if (!read.ok) return read;
    return ok({ ...read.value, name, byteSize: file.size });
  }

  const refused = materialRefusal(user.plan, { kind: 'pasted', chars: pasted.length });
  if (refused) return fail(refused.message, refused.status);
  const read = await extractMaterialOffThread({ pasted });
  if (!read.ok) return read;
  return ok({
    ...read.value,
    name: PASTED_TEXT_NAME,
    byteSize: Buffer.byteLength(pasted),
  });
}

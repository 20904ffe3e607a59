import { createHash, randomBytes } from 'node:crypto';

/** A random, URL-safe id that cannot be guessed (128 bits). */
export function newId(): string {
  return randomBytes(16).toString('base64url');
}

/** A secret token for cookies and emailed links (256 bits). */
export function newSecretToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What the database keeps of a secret token, so a leaked database leaks no live tokens. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

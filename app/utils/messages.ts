/**
 * Messages the product shows word for word, shared by server validation and the
 * pages' own checks in the browser (so nothing server-only here).
 */
export const REQUIRED_FIELDS_MESSAGE = 'Please fill in all required fields';

/** Ours (the product has no wording for it): an email field that does not hold an address. */
export const INVALID_EMAIL_MESSAGE = 'Please enter a valid email address';

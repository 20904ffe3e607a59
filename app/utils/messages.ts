/**
 * Messages the product shows word for word, shared by server validation and the
 * pages' own checks in the browser (so nothing server-only here).
 */
export const REQUIRED_FIELDS_MESSAGE = 'Please fill in all required fields';

/** Ours (the product has no wording for it): an email field that does not hold an address. */
export const INVALID_EMAIL_MESSAGE = 'Please enter a valid email address';

/** The product's required-fields words, naming the field left empty as the page labels it. */
export const missingFieldMessage = (field: string) => `${REQUIRED_FIELDS_MESSAGE}: ${field}`;

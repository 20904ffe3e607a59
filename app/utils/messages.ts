/**
 * Messages the spec shows word for word, shared by server validation and the
 * pages' own checks in the browser (so nothing server-only here).
 */
export const REQUIRED_FIELDS_MESSAGE = 'Please fill in all required fields';

/** Length bounds of a contact message, shared by the form (maxLength) and the server check. */
export const CONTACT_LIMITS = {
  name: 100,
  email: 254,
  phoneMin: 5,
  phoneMax: 15,
  message: 5000,
} as const;

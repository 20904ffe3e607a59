import type { Result } from '~/domain/result';

/** What the account use cases (sign up, sign in, forgot and reset password, profile) answer. */

export const MESSAGES = {
  signedUp: 'Account created successfully',
  emailTaken: 'An account with this email already exists',
  signedIn: 'SignIn successful',
  badCredentials: 'Invalid email or password',
  passwordResetNeeded:
    'The password of this account must be set again: we have emailed you a link to choose a new one',
  signInsPaused:
    'Too many failed sign-ins to this account. Sign in from a browser you have used before, reset your password, or try again in',
  resetSent: 'If an account exists for this email, a password reset link has been sent to it',
  passwordReset: 'Password has been reset successfully',
  badResetToken: 'This reset link is invalid or has expired',
  profileUpdated: 'Profile Updated',
  emailInUse: 'This email is already in use',
  currentPasswordNeeded: 'Please enter your current password to change your email or password',
  currentPasswordWrong: 'Your current password is incorrect',
  badEmailChangeToken: 'This email confirmation link is invalid or has expired',
  emailChanged: 'Your email address has been changed',
} as const;

/** The profile's answer when a new email waits for its owner to follow the link. */
export const emailChangeSentMessage = (email: string) =>
  `Profile Updated. To change your email, follow the link we sent to ${email}`;

/** What an account use case gives back on success: the message the member sees, and more. */
export type Done<T extends object = object> = Result<{ message: string } & T>;

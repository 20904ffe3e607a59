import { z } from 'zod';
import { MIN_PASSWORD_LENGTH } from '~/models/users.server';
import { INVALID_EMAIL_MESSAGE } from '~/utils/messages';
import { REQUIRED_FIELDS_MESSAGE, requiredText } from '~/utils/validation.server';

/**
 * What the account pages and the `/api` accept: routes parse the body with these schemas and
 * pass the session's user to the use cases, which never trust an id from a request.
 */

const PASSWORD_LENGTH_MESSAGE = `Password should be at least ${MIN_PASSWORD_LENGTH} characters`;
const PASSWORD_MISMATCH_MESSAGE = 'The password and confirm password do not match';

// Older accounts' bcrypt hashes read at most 72 bytes; the limit keeps one rule for all.
const MAX_PASSWORD_BYTES = 72;

/** Present and not empty; passwords are never trimmed (spaces are allowed). */
const requiredPassword = z
  .string({ error: REQUIRED_FIELDS_MESSAGE })
  .min(1, REQUIRED_FIELDS_MESSAGE)
  .max(1000, 'Please keep this under 1000 characters');

const newPassword = z
  .string()
  .min(MIN_PASSWORD_LENGTH, PASSWORD_LENGTH_MESSAGE)
  .refine((password) => password.trim().length > 0, 'Password cannot be only spaces')
  .refine(
    (password) => Buffer.byteLength(password, 'utf8') <= MAX_PASSWORD_BYTES,
    `Password should be at most ${MAX_PASSWORD_BYTES} characters`,
  );

const emailAddress = z.email(INVALID_EMAIL_MESSAGE);
const NAME = { label: 'Name', singleLine: true };
const EMAIL = { label: 'Email', singleLine: true };

// Each schema checks "all required fields" first, then the finer rules, so the
// product's required-fields message wins whenever something is missing.
export const signUpSchema = z
  .object({
    mName: requiredText(100, NAME),
    email: requiredText(254, EMAIL),
    password: requiredPassword,
  })
  .pipe(z.object({ mName: z.string(), email: emailAddress, password: newPassword }));

export const signInSchema = z.object({
  email: requiredText(254, EMAIL),
  password: requiredPassword,
});

export const forgotSchema = z
  .object({ email: requiredText(254, EMAIL) })
  .pipe(z.object({ email: emailAddress }));

const resetToken = requiredText(200);

/** `/api/reset-password`: the API's payload is password and token. */
export const resetApiSchema = z
  .object({ password: requiredPassword, token: resetToken })
  .pipe(z.object({ password: newPassword, token: z.string() }));

/** The reset page: both fields required, then they must match, then the length rule. */
export const resetFormSchema = z
  .object({ password: requiredPassword, confirmPassword: requiredPassword, token: resetToken })
  .refine((v) => v.password === v.confirmPassword, PASSWORD_MISMATCH_MESSAGE)
  .pipe(z.object({ password: newPassword, confirmPassword: z.string(), token: z.string() }));

/**
 * Profile: name and email required, the new password optional (same length rule when given).
 * The current password is checked by the use case, and only when the email or password changes.
 */
export const profileSchema = z
  .object({
    mName: requiredText(100, NAME),
    email: requiredText(254, EMAIL),
    password: z.string({ error: 'The new password should be text' }).max(1000).optional(),
    currentPassword: z
      .string({ error: 'The current password should be text' })
      .max(1000)
      .optional(),
  })
  .pipe(
    z.object({
      mName: z.string(),
      email: emailAddress,
      currentPassword: z.string().optional(),
      password: z
        .string()
        .optional()
        .superRefine((password, ctx) => {
          if (!password) return;
          const checked = newPassword.safeParse(password);
          if (!checked.success)
            ctx.addIssue({ code: 'custom', message: checked.error.issues[0]!.message });
        }),
    }),
  );

/** `/verify-email/:token`: the token from the link. */
export const emailChangeSchema = z.object({ token: requiredText(200) });

export type SignUpInput = z.infer<typeof signUpSchema>;
export type SignInInput = z.infer<typeof signInSchema>;
export type ForgotInput = z.infer<typeof forgotSchema>;
export type ResetInput = z.infer<typeof resetApiSchema>;
export type ProfileInput = z.infer<typeof profileSchema>;
export type EmailChangeInput = z.infer<typeof emailChangeSchema>;

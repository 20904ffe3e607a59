import { PRODUCT_ACCENT } from '~/domain/brand';
import { absoluteUrl, brand } from '~/services/brand.server';
import { env } from '~/utils/env.server';
import { escapeHtml } from '~/utils/escape';

/**
 * The product's fixed account emails. The name, logo, accent and support email are the brand
 * (ADR 0062: the settings, else COMPANY_NAME and LOGO_URL), never anything from a request, and
 * every value placed in the HTML is escaped.
 */
export interface RenderedEmail {
  subject: string;
  html: string;
  text: string;
}

interface EmailBrand {
  company: string;
  logo: string;
  appUrl: string;
  accent: string;
  supportEmail: string | null;
}

async function emailBrand(): Promise<EmailBrand> {
  const current = await brand();
  return {
    company: current.name,
    logo: absoluteUrl(current.logoUrl),
    appUrl: env().APP_URL,
    accent: current.accent ?? PRODUCT_ACCENT,
    supportEmail: current.supportEmail,
  };
}

function layout(b: EmailBrand, title: string, body: string): string {
  const { company, logo, supportEmail } = b;
  const support = supportEmail
    ? `<br>Questions? Write to <a href="mailto:${escapeHtml(supportEmail)}">${escapeHtml(supportEmail)}</a>`
    : '';
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>
<body style="margin:0;padding:24px;background:#f4f6fb;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#111827">
<table role="presentation" width="100%" style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:10px;padding:24px">
<tr><td style="text-align:center;padding-bottom:16px">
<img src="${escapeHtml(logo)}" alt="${escapeHtml(company)}" width="48" height="48">
<h1 style="font-size:22px;margin:8px 0 0">${escapeHtml(title)}</h1>
</td></tr>
<tr><td style="font-size:16px;line-height:1.6">${body}</td></tr>
<tr><td style="padding-top:24px;font-size:13px;color:#4b5563;text-align:center">&copy; ${escapeHtml(company)}${support}</td></tr>
</table>
</body>
</html>`;
}

function button(b: EmailBrand, href: string, label: string): string {
  return `<p style="text-align:center;margin:24px 0"><a href="${escapeHtml(href)}" style="background:${b.accent};color:#ffffff;padding:12px 20px;border-radius:10px;text-decoration:none;font-weight:600">${escapeHtml(label)}</a></p>`;
}

export async function welcomeEmail(name: string): Promise<RenderedEmail> {
  const b = await emailBrand();
  const { company, appUrl } = b;
  const subject = `Welcome to ${company}`;
  return {
    subject,
    html: layout(
      b,
      subject,
      `<p>Hello ${escapeHtml(name)},</p>
<p>Your ${escapeHtml(company)} account is ready. Type a course title and we will write the outline and every lesson for you.</p>
${button(b, `${appUrl}/create`, 'Generate Course')}`,
    ),
    text: `Hello ${name},\n\nYour ${company} account is ready. Generate your first course at ${appUrl}/create\n`,
  };
}

export async function passwordResetEmail(name: string, token: string): Promise<RenderedEmail> {
  const b = await emailBrand();
  const { company, appUrl } = b;
  const link = `${appUrl}/reset-password/${encodeURIComponent(token)}`;
  const subject = `Reset your ${company} password`;
  return {
    subject,
    html: layout(
      b,
      'Reset your password',
      `<p>Hello ${escapeHtml(name)},</p>
<p>Someone asked to reset the password of your ${escapeHtml(company)} account. The link below works once, for one hour.</p>
${button(b, link, 'Reset Password')}
<p style="font-size:14px;color:#4b5563">Or paste this address into your browser: <a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>
<p style="font-size:14px;color:#4b5563">If you did not ask for this, ignore this email: your password stays as it is.</p>`,
    ),
    text: `Hello ${name},\n\nReset your ${company} password (the link works once, for one hour):\n${link}\n\nIf you did not ask for this, ignore this email.\n`,
  };
}

/** Sent after a password or email change (to the old address too, so a hijack is noticed). */
export async function accountUpdatedEmail(
  name: string,
  changes: { password: boolean; email?: string },
): Promise<RenderedEmail> {
  const b = await emailBrand();
  const { company, appUrl } = b;
  const what = [
    changes.password ? 'your password was changed' : null,
    changes.email ? `your email address was changed to ${changes.email}` : null,
  ]
    .filter(Boolean)
    .join(' and ');
  const subject = changes.password
    ? `Your ${company} password was updated`
    : `Your ${company} account was updated`;
  return {
    subject,
    html: layout(
      b,
      changes.password ? 'Password updated' : 'Account updated',
      `<p>Hello ${escapeHtml(name)},</p>
<p>This is to let you know that ${escapeHtml(what)}.</p>
<p>If this was not you, reset your password now and contact us.</p>
${button(b, `${appUrl}/forgot`, 'Reset Password')}`,
    ),
    text: `Hello ${name},\n\nThis is to let you know that ${what}.\nIf this was not you, reset your password at ${appUrl}/forgot\n`,
  };
}

/**
 * Sent once when an account's failed sign-ins reach their hourly cap: someone may be guessing the
 * password. Says what still works, so the owner is not locked out.
 */
export async function signInsPausedEmail(name: string, failures: number): Promise<RenderedEmail> {
  const b = await emailBrand();
  const { company, appUrl } = b;
  const subject = `Many failed sign-ins to your ${company} account`;
  return {
    subject,
    html: layout(
      b,
      'Many failed sign-ins',
      `<p>Hello ${escapeHtml(name)},</p>
<p>There were ${failures} failed attempts to sign in to your ${escapeHtml(company)} account within an hour, so sign-ins from new devices are paused for up to an hour.</p>
<p>You can still sign in from a browser you have signed in with before. Resetting your password ends the pause at once, and if these attempts were not yours it also keeps your account safe.</p>
${button(b, `${appUrl}/forgot`, 'Reset Password')}`,
    ),
    text: `Hello ${name},

There were ${failures} failed attempts to sign in to your ${company} account within an hour, so sign-ins from new devices are paused for up to an hour.
You can still sign in from a browser you have signed in with before. Resetting your password ends the pause at once: ${appUrl}/forgot
`,
  };
}

/** Sent to the new address: the change happens only when its owner follows this link. */
export async function confirmEmailChangeEmail(
  name: string,
  newEmail: string,
  token: string,
): Promise<RenderedEmail> {
  const b = await emailBrand();
  const { company, appUrl } = b;
  const link = `${appUrl}/verify-email/${encodeURIComponent(token)}`;
  const subject = `Confirm your new ${company} email address`;
  return {
    subject,
    html: layout(
      b,
      'Confirm your new email address',
      `<p>Hello ${escapeHtml(name)},</p>
<p>You asked to use ${escapeHtml(newEmail)} for your ${escapeHtml(company)} account. Your account keeps its old address until you follow the link below (it works once, for 24 hours).</p>
${button(b, link, 'Confirm Email')}
<p style="font-size:14px;color:#4b5563">Or paste this address into your browser: <a href="${escapeHtml(link)}">${escapeHtml(link)}</a></p>
<p style="font-size:14px;color:#4b5563">If you did not ask for this, ignore this email: nothing changes.</p>`,
    ),
    text: `Hello ${name},\n\nConfirm ${newEmail} as the email of your ${company} account (the link works once, for 24 hours):\n${link}\n\nIf you did not ask for this, ignore this email.\n`,
  };
}

/** Sent to the current address when a change to another one is asked for, so a hijack is noticed. */
export async function emailChangeRequestedEmail(
  name: string,
  newEmail: string,
): Promise<RenderedEmail> {
  const b = await emailBrand();
  const { company, appUrl } = b;
  const what = `someone asked to change the email of your ${company} account to ${newEmail}`;
  return {
    subject: `Your ${company} email is about to change`,
    html: layout(
      b,
      'Email change requested',
      `<p>Hello ${escapeHtml(name)},</p>
<p>This is to let you know that ${escapeHtml(what)}. It changes once the link sent to that address is followed.</p>
<p>If this was not you, reset your password now: that cancels the change and signs out every device.</p>
${button(b, `${appUrl}/forgot`, 'Reset Password')}`,
    ),
    text: `Hello ${name},\n\nThis is to let you know that ${what}. It changes once the link sent to that address is followed.\nIf this was not you, reset your password at ${appUrl}/forgot: that cancels the change and signs out every device.\n`,
  };
}

/** Sent when an API token is made: a token outlives sign-outs, so its owner should know of each. */
export async function apiTokenCreatedEmail(
  name: string,
  tokenName: string,
): Promise<RenderedEmail> {
  const b = await emailBrand();
  const { company, appUrl } = b;
  const what = `an API token named "${tokenName}" was made for your ${company} account`;
  return {
    subject: `A new API token for your ${company} account`,
    html: layout(
      b,
      'New API token',
      `<p>Hello ${escapeHtml(name)},</p>
<p>This is to let you know that ${escapeHtml(what)}. It acts as you on the API until it is revoked on your profile page or your password changes.</p>
<p>If this was not you, revoke it and change your password now.</p>
${button(b, `${appUrl}/profile`, 'Your API tokens')}`,
    ),
    text: `Hello ${name},\n\nThis is to let you know that ${what}. It acts as you on the API until it is revoked on your profile page (${appUrl}/profile) or your password changes.\nIf this was not you, revoke it and change your password now.\n`,
  };
}

/** A renewal could not be charged: the provider retries; the member can fix the payment method. */
export async function paymentFailedEmail(name: string, method: string): Promise<RenderedEmail> {
  const b = await emailBrand();
  const { company, appUrl } = b;
  const link = `${appUrl}/subscription`;
  return {
    subject: `Your ${company} payment failed`,
    html: layout(
      b,
      'Your payment failed',
      `<p>Hello ${escapeHtml(name)},</p>
<p>We could not charge your subscription through ${escapeHtml(method)}. ${escapeHtml(method)} will try again; to keep your paid plan, check the payment method you use there.</p>
${button(b, link, 'Open your subscription')}`,
    ),
    text: `Hello ${name},\n\nWe could not charge your subscription through ${method}. It will be tried again; to keep your paid plan, check your payment method: ${link}\n`,
  };
}

/** The last email to a deleted account's address (issue 38): what went and what was kept. */
export async function accountDeletedEmail(name: string): Promise<RenderedEmail> {
  const b = await emailBrand();
  const { company } = b;
  const kept =
    'Receipts of your payments are kept as tax law requires, without your name, email or address.';
  return {
    subject: `Your ${company} account was deleted`,
    html: layout(
      b,
      'Account deleted',
      `<p>Hello ${escapeHtml(name)},</p>
<p>Your ${escapeHtml(company)} account and everything in it (your courses, notes, quiz answers, flashcards, documents and sign-ins) have been deleted. Any subscription was cancelled first, so you will not be charged again.</p>
<p>${escapeHtml(kept)}</p>
<p>You are welcome to sign up again with this address at any time.</p>`,
    ),
    text: `Hello ${name},\n\nYour ${company} account and everything in it (your courses, notes, quiz answers, flashcards, documents and sign-ins) have been deleted. Any subscription was cancelled first, so you will not be charged again.\n${kept}\nYou are welcome to sign up again with this address at any time.\n`,
  };
}

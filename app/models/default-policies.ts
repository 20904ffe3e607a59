import type { PolicyKey } from '../../db/schema';

/** The texts a fresh install starts with; admins edit them from the admin panel. */
export const DEFAULT_POLICIES: Record<PolicyKey, string> = {
  terms:
    '<h2>Terms of Service</h2><p>By using CourseGen you agree to use generated courses lawfully and to keep your account details accurate.</p>',
  privacy:
    '<h2>Privacy Policy</h2><p>We keep only what we need to run your account: your name, email, courses and payment status.</p>',
  cancel:
    '<h2>Cancellation Policy</h2><p>You can cancel a paid plan at any time from the Subscription page; access continues until the end of the period.</p>',
  refund:
    '<h2>Refund Policy</h2><p>Payments are not refundable once a billing period has started, except where the law requires.</p>',
  billing:
    '<h2>Subscription &amp; Billing Policy</h2><p>Paid plans renew automatically each month or year until cancelled.</p>',
};

import type { PolicyKey } from '../../db/schema';

export interface PolicyPage {
  key: PolicyKey;
  /** The public page. */
  path: string;
  /** The page title. */
  title: string;
  /** For search engines and link previews. */
  description: string;
  /** How the admin editor's placeholder names the text. */
  noun: string;
}

/** The five policy pages, keyed by the stored policy they show. Browser-safe. */
export const POLICY_PAGES: Record<PolicyKey, PolicyPage> = {
  terms: {
    key: 'terms',
    path: '/terms',
    title: 'Terms',
    description: 'The terms of service for using the AI course generator.',
    noun: 'terms',
  },
  privacy: {
    key: 'privacy',
    path: '/privacy',
    title: 'Privacy Policy',
    description: 'What the AI course generator collects about you, why, and your choices.',
    noun: 'privacy',
  },
  cancel: {
    key: 'cancel',
    path: '/cancellation',
    title: 'Cancellation Policy',
    description: 'How to cancel a paid plan and what happens to your courses afterwards.',
    noun: 'cancellation',
  },
  refund: {
    key: 'refund',
    path: '/refund',
    title: 'Refund Policy',
    description: 'When payments for a paid plan are refunded and how to ask for a refund.',
    noun: 'refund',
  },
  billing: {
    key: 'billing',
    path: '/billing',
    title: 'Subscription & Billing Policy',
    description: 'How monthly and yearly plans are billed, renewed and changed.',
    noun: 'subscription & billing',
  },
};

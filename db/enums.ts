/**
 * The enumerated values of the schema's text columns and their types, in a module of their own:
 * app code may import values from here (a zod enum, a form's options), but not from the schema
 * files, whose tables it reaches through the data layer (ADR 0041). `db/schema` re-exports them.
 */
export const PLANS = ['free', 'monthly', 'yearly'] as const;
export type Plan = (typeof PLANS)[number];

export const ROLES = ['member', 'admin', 'main_admin'] as const;
export type Role = (typeof ROLES)[number];

export const COURSE_TYPES = ['text', 'video'] as const;
export type CourseType = (typeof COURSE_TYPES)[number];

export const GENERATION_STATES = [
  'queued',
  'running',
  'retrying',
  'done',
  'failed',
  'cancelled',
] as const;
/** `cancelled`: the member gave up on an outline the AI could not write; it costs no more calls. */
export type GenerationState = (typeof GENERATION_STATES)[number];

export const MEDIA_STATES = ['pending', 'done', 'retrying'] as const;
/** A lesson's image or video: fetched with the theory, retried on its own if the vendor failed. */
export type MediaState = (typeof MEDIA_STATES)[number];

export const MATERIAL_KINDS = ['pdf', 'docx', 'markdown', 'text', 'pasted'] as const;
export type MaterialKind = (typeof MATERIAL_KINDS)[number];

export const PAYMENT_PROVIDERS = ['paypal', 'razorpay'] as const;
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];

export const SUBSCRIPTION_STATUSES = [
  'pending',
  'active',
  'cancelled',
  'expired',
  'failed',
] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const POLICY_KEYS = ['terms', 'privacy', 'cancel', 'refund', 'billing'] as const;
export type PolicyKey = (typeof POLICY_KEYS)[number];

export const TUTOR_ROLES = ['user', 'assistant'] as const;

export const QUIZ_KINDS = ['topic', 'exam'] as const;
export type QuizKind = (typeof QUIZ_KINDS)[number];

export const REGENERATION_STATES = ['running', 'done'] as const;
export type RegenerationState = (typeof REGENERATION_STATES)[number];
/** How a kept version of a lesson came to be (ADR 0059). */
export const LESSON_VERSION_KINDS = ['generated', 'regenerated', 'edited', 'restored'] as const;
export type LessonVersionKind = (typeof LESSON_VERSION_KINDS)[number];

/**
 * The enumerated values of the schema's text columns, in a module of their own: app code may
 * import values from here (a zod enum, a form's options), but not from the schema files, whose
 * tables it reaches through the data layer (ADR 0041).
 */
export const PLANS = ['free', 'monthly', 'yearly'] as const;

export const ROLES = ['member', 'admin', 'main_admin'] as const;

export const COURSE_TYPES = ['text', 'video'] as const;

export const GENERATION_STATES = [
  'queued',
  'running',
  'retrying',
  'done',
  'failed',
  'cancelled',
] as const;

export const MEDIA_STATES = ['pending', 'done', 'retrying'] as const;

export const MATERIAL_KINDS = ['pdf', 'docx', 'markdown', 'text', 'pasted'] as const;

export const PAYMENT_PROVIDERS = ['paypal', 'razorpay'] as const;

export const SUBSCRIPTION_STATUSES = [
  'pending',
  'active',
  'cancelled',
  'expired',
  'failed',
] as const;

export const POLICY_KEYS = ['terms', 'privacy', 'cancel', 'refund', 'billing'] as const;

export const TUTOR_ROLES = ['user', 'assistant'] as const;

export const QUIZ_KINDS = ['topic', 'exam'] as const;

export const REGENERATION_STATES = ['running', 'done'] as const;

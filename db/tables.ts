import { sql } from 'drizzle-orm';
import {
  boolean,
  dialectSql,
  float,
  generatedId,
  index,
  integer,
  json,
  primaryKey,
  table,
  text,
  timestamp,
  uniqueIndex,
} from './dialects';
import {
  COURSE_TYPES,
  GENERATION_STATES,
  MATERIAL_KINDS,
  MEDIA_STATES,
  PAYMENT_PROVIDERS,
  PLANS,
  POLICY_KEYS,
  QUIZ_KINDS,
  REGENERATION_STATES,
  LESSON_VERSION_KINDS,
  ROLES,
  SUBSCRIPTION_STATUSES,
  TUTOR_ROLES,
} from './enums';

/**
 * The whole product's data model. Ids the outside world sees are random text
 * ids (never guessable sequence numbers); rows that only live inside a course
 * use integer keys.
 *
 * Each table is declared once, here, for both databases (ADR 0049): `db/schema.ts` exports them
 * as SQLite tables and `db/schema.pg.ts` as PostgreSQL ones; `db/dialects.ts` says how each
 * column type is stored on each.
 */

const createdAt = () => timestamp('created_at').notNull().defaultNow();
const updatedAt = () => timestamp('updated_at').notNull().defaultNow();
/** Foreign keys: the row goes with the row it points at, or forgets it. */
const cascade = { onDelete: 'cascade' } as const;
const setNull = { onDelete: 'set null' } as const;

export const users = table(
  'users',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    name: text('name').notNull(),
    passwordHash: text('password_hash').notNull(),
    plan: text('plan', { enum: PLANS }).notNull().default('free'),
    role: text('role', { enum: ROLES }).notNull().default('member'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_nocase_unique').on(sql`lower(${t.email})`),
    index('users_plan_idx').on(t.plan, t.createdAt),
    // The admin tables page members newest first, and list admins by role.
    index('users_created_idx').on(t.createdAt, t.id),
    index('users_role_idx').on(t.role),
  ],
);

/** Server-side sessions: the cookie holds the id, so a session can be revoked. */
export const sessions = table(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(users.id, cascade),
    expiresAt: timestamp('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('sessions_user_idx').on(t.userId), index('sessions_expires_idx').on(t.expiresAt)],
);

/** Only the SHA-256 of a reset token is stored; the token itself travels by email. */
export const passwordResetTokens = table(
  'password_reset_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: text('user_id').notNull().references(users.id, cascade),
    expiresAt: timestamp('expires_at').notNull(),
    usedAt: timestamp('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('password_reset_tokens_user_idx').on(t.userId)],
);

/**
 * A new email address waiting for its owner to follow the link sent to it; like reset tokens,
 * only the token's SHA-256 is stored. The account keeps its old address until then.
 */
export const emailChangeTokens = table(
  'email_change_tokens',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: text('user_id').notNull().references(users.id, cascade),
    newEmail: text('new_email').notNull(),
    expiresAt: timestamp('expires_at').notNull(),
    usedAt: timestamp('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('email_change_tokens_user_idx').on(t.userId)],
);

/** An outline asked of the AI before the member decides to generate the course (/topics). */
export const outlines = table(
  'outlines',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(users.id, cascade),
    mainTopic: text('main_topic').notNull(),
    /** The sub-topics the member typed on /create (the spec's word for them). */
    subtopics: json('subtopics').$type<string[]>().notNull(),
    topicCount: integer('topic_count').notNull(),
    courseType: text('course_type', { enum: COURSE_TYPES }).notNull(),
    state: text('state', { enum: GENERATION_STATES }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    /** How the last try failed (see describeAiFailure): `unusable` repeated tells the member. */
    failureKind: text('failure_kind', { enum: ['transient', 'unusable', 'repeating'] }),
    /**
     * Validated outline: [{ title, lessons: [{ title }] }] (app/domain/outline.ts). Outlines stored
     * before they were called lessons had `subtopics`: the `outline_lessons` migration renamed
     * them (ADR 0052).
     */
    result: json('result').$type<{ title: string; lessons: { title: string }[] }[]>(),
    courseId: text('course_id'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** The course's language code (app/domain/languages.ts). */
    language: text('language').notNull().default('en'),
    /**
     * "Rewrite the outline" (ADR 0032): the member's one-line instruction while a rewrite is owed,
     * null otherwise. The written outline stays in `result` until the rewrite replaces it.
     */
    rewriteInstruction: text('rewrite_instruction'),
    /** Counts rewrites asked for: each one's job is its own (`outline-<id>-rewrite-<round>`). */
    rewriteRound: integer('rewrite_round').notNull().default(0),
    /** Counts the member's saved edits of `result`, so a page can tell which save the server holds. */
    revision: integer('revision').notNull().default(0),
  },
  (t) => [index('outlines_user_idx').on(t.userId)],
);

/** Where a section of the member's material came from: its pages (PDF) or none (other kinds). */
export interface MaterialSection {
  /** The document's own heading, or "Pages 3–4" / "Part 2" where it had none. */
  heading: string;
  text: string;
  /** First and last page (PDF only). */
  pageStart?: number;
  pageEnd?: number;
}

/**
 * The member's own material a course is written from (ADR 0032): the text extracted from an
 * uploaded document or pasted, split into sections. One per outline, made with it (never
 * without it); the course made from the outline owns it too, and deleting either deletes it.
 * Only its owner ever reads it.
 */
export const sourceDocuments = table(
  'source_documents',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(users.id, cascade),
    outlineId: text('outline_id').notNull().references(outlines.id, cascade),
    courseId: text('course_id').references(() => courses.id, cascade), // declared below
    kind: text('kind', { enum: MATERIAL_KINDS }).notNull(),
    /** The file's name as uploaded, or "Pasted text". */
    name: text('name').notNull(),
    byteSize: integer('byte_size').notNull(),
    pageCount: integer('page_count'),
    charCount: integer('char_count').notNull(),
    sections: json('sections').$type<MaterialSection[]>().notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('source_documents_outline_unique').on(t.outlineId),
    index('source_documents_course_idx').on(t.courseId),
    index('source_documents_user_idx').on(t.userId),
  ],
);

/** The sections of the member's material a lesson was written from, as its page lists them. */
export interface LessonSource {
  /** Index in the document's sections (its anchor on /documents/:id). */
  section: number;
  heading: string;
  pageStart: number | null;
  pageEnd: number | null;
}

export const courses = table(
  'courses',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(users.id, cascade),
    mainTopic: text('main_topic').notNull(),
    type: text('type', { enum: COURSE_TYPES }).notNull(),
    photoUrl: text('photo_url'),
    photoCredit: text('photo_credit'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** The language its outline and lessons are written in (app/domain/languages.ts). */
    language: text('language').notNull().default('en'),
  },
  (t) => [
    // Keyset pages of a member's courses (migration 0013).
    index('courses_user_created_id_idx').on(t.userId, t.createdAt, t.id),
    index('courses_created_idx').on(t.createdAt, t.id),
    index('courses_type_idx').on(t.type),
  ],
);

export const topics = table(
  'topics',
  {
    id: generatedId(),
    courseId: text('course_id').notNull().references(courses.id, cascade),
    position: integer('position').notNull(),
    title: text('title').notNull(),
  },
  (t) => [uniqueIndex('topics_course_position_unique').on(t.courseId, t.position)],
);

/**
 * One row per sub-topic, so that lesson jobs running in parallel each write
 * only their own row and never overwrite each other's work.
 */
export const lessons = table(
  'lessons',
  {
    id: generatedId(),
    courseId: text('course_id').notNull().references(courses.id, cascade),
    topicId: integer('topic_id').notNull().references(topics.id, cascade),
    position: integer('position').notNull(),
    /** Place in the whole course (0 = the first lesson), for ordering and job priority. */
    ordinal: integer('ordinal').notNull().default(0),
    title: text('title').notNull(),
    /** Sanitized HTML rendered from the model's Markdown. */
    theory: text('theory'),
    imageUrl: text('image_url'),
    /** JSON `{ name, url }`: the photographer, as the image API's terms require. */
    imageCredit: text('image_credit'),
    youtubeId: text('youtube_id'),
    done: boolean('done').notNull().default(false),
    /** The theory: a lesson is readable once this is 'done'. */
    state: text('state', { enum: GENERATION_STATES }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    generatedAt: timestamp('generated_at'),
    mediaState: text('media_state', { enum: MEDIA_STATES }).notNull().default('pending'),
    /** The sections of the course's material the lesson drew on (none without material). */
    sources: json('sources').$type<LessonSource[]>(),
  },
  (t) => [
    uniqueIndex('lessons_topic_position_unique').on(t.topicId, t.position),
    index('lessons_course_idx').on(t.courseId, t.ordinal),
    // Only unfinished lessons: the admin dashboard counts what is generating now.
    index('lessons_unfinished_idx')
      .on(t.state, t.attempts)
      .where(sql`${t.state} != 'done'`),
  ],
);

/** A finished course: recorded once, with the public id printed on its certificate. */
export const courseCompletions = table('course_completions', {
  courseId: text('course_id').primaryKey().references(courses.id, cascade),
  certificateId: text('certificate_id').notNull().unique(),
  completedAt: timestamp('completed_at').notNull(),
  /** Name and title as printed, so the certificate never changes after issue. */
  memberName: text('member_name').notNull(),
  courseTitle: text('course_title').notNull(),
  /** When the certificate email went out; null until it has. */
  emailedAt: timestamp('emailed_at'),
  /** When a sender claimed the email; a claim older than the lease counts as unsent. */
  emailClaimedAt: timestamp('email_claimed_at'),
});

export const subscriptions = table(
  'subscriptions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(users.id, cascade),
    provider: text('provider', { enum: PAYMENT_PROVIDERS }).notNull(),
    providerSubscriptionId: text('provider_subscription_id').notNull(),
    providerCustomerId: text('provider_customer_id'),
    plan: text('plan', { enum: ['monthly', 'yearly'] }).notNull(),
    status: text('status', { enum: SUBSCRIPTION_STATUSES }).notNull().default('pending'),
    /** Smallest currency unit (cents), so sums never suffer float rounding. */
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull().default('USD'),
    approvalUrl: text('approval_url'),
    startedAt: timestamp('started_at'),
    nextBillingAt: timestamp('next_billing_at'),
    cancelledAt: timestamp('cancelled_at'),
    /** After a cancel: the member keeps the paid plan until this time, then drops to free. */
    paidUntil: timestamp('paid_until'),
    /** Who pays, as typed on /payment: printed on receipts. */
    customer: json('customer').$type<BillingCustomer>(),
    /**
     * When the server last fetched it from the provider (a webhook's job or the reconciliation):
     * the reconciliation re-checks the longest unchecked first (ADR 0037).
     */
    checkedAt: timestamp('checked_at'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('subscriptions_provider_id_unique').on(t.provider, t.providerSubscriptionId),
    index('subscriptions_user_idx').on(t.userId),
    index('subscriptions_paid_until_idx').on(t.paidUntil),
    index('subscriptions_checked_idx').on(t.checkedAt),
  ],
);

export interface BillingCustomer {
  email: string;
  firstName: string;
  lastName: string;
  address: string;
  postalCode: string;
  country: string;
}

/**
 * One numbered receipt per successful payment. The provider's payment (its id,
 * or the subscription and the payment time) is unique, so a replayed return
 * URL or webhook never makes a second one.
 */
export const receipts = table(
  'receipts',
  {
    number: generatedId('number'),
    subscriptionId: text('subscription_id').notNull().references(subscriptions.id, cascade),
    userId: text('user_id').notNull().references(users.id, cascade),
    providerPaymentKey: text('provider_payment_key').notNull(),
    plan: text('plan', { enum: ['monthly', 'yearly'] }).notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    paidAt: timestamp('paid_at').notNull(),
    nextBillingAt: timestamp('next_billing_at'),
    emailedAt: timestamp('emailed_at'),
    emailClaimedAt: timestamp('email_claimed_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('receipts_payment_unique').on(t.subscriptionId, t.providerPaymentKey),
    index('receipts_user_idx').on(t.userId, t.number),
  ],
);

/**
 * A deleted account's receipts, kept for the tax law's years without the member (issue 38, ADR
 * 0054): the receipt's number, what was paid, when and through which provider, and the billing
 * country (where the sale is taxed). No name, email, address or id of the member.
 */
export const keptReceipts = table(
  'kept_receipts',
  {
    number: integer('number').primaryKey(),
    provider: text('provider', { enum: PAYMENT_PROVIDERS }).notNull(),
    providerPaymentKey: text('provider_payment_key').notNull(),
    plan: text('plan', { enum: ['monthly', 'yearly'] }).notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    paidAt: timestamp('paid_at').notNull(),
    country: text('country'),
    accountDeletedAt: timestamp('account_deleted_at').notNull(),
  },
  (t) => [index('kept_receipts_paid_idx').on(t.paidAt)],
);

/** Every message a payment provider sent or answered, kept raw for audit and idempotency. */
export const paymentEvents = table(
  'payment_events',
  {
    id: generatedId(),
    provider: text('provider', { enum: PAYMENT_PROVIDERS }).notNull(),
    /** Razorpay: the event's signed body (event, entity ids, time); PayPal: its event id. */
    providerEventId: text('provider_event_id'),
    /** Razorpay's unsigned X-Razorpay-Event-Id header: a second key, never the only one. */
    headerEventId: text('header_event_id'),
    subscriptionId: text('subscription_id').references(subscriptions.id, setNull),
    kind: text('kind').notNull(),
    status: text('status'),
    amountCents: integer('amount_cents'),
    currency: text('currency'),
    payload: json('payload').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('payment_events_provider_event_unique').on(t.provider, t.providerEventId),
    uniqueIndex('payment_events_provider_header_event_unique').on(t.provider, t.headerEventId),
    index('payment_events_subscription_idx').on(t.subscriptionId),
  ],
);

export const contacts = table(
  'contacts',
  {
    id: text('id').primaryKey(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    phone: text('phone').notNull(),
    message: text('message').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('contacts_created_idx').on(t.createdAt, t.id)],
);

/** Every admin action that changes something: who, what and when. */
export const adminAudit = table(
  'admin_audit',
  {
    id: generatedId(),
    actorId: text('actor_id').references(users.id, setNull),
    actorEmail: text('actor_email').notNull(),
    action: text('action').notNull(),
    detail: text('detail').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('admin_audit_created_idx').on(t.createdAt)],
);

export const policies = table('policies', {
  key: text('key', { enum: POLICY_KEYS }).primaryKey(),
  html: text('html').notNull(),
  updatedAt: updatedAt(),
  updatedBy: text('updated_by').references(users.id, setNull),
});

/** Demo-mode mail: what would have been sent, readable by an admin at /admin/outbox. */
export const outboxEmails = table(
  'outbox_emails',
  {
    id: generatedId(),
    to: text('to').notNull(),
    from: text('from').notNull(),
    subject: text('subject').notNull(),
    html: text('html'),
    text: text('text'),
    attachments: json('attachments')
      .$type<{ filename: string; contentType: string; base64: string }[]>()
      .notNull()
      .default(dialectSql({ sqlite: sql`'[]'`, postgres: sql`'[]'::jsonb` })),
    createdAt: createdAt(),
  },
  (t) => [index('outbox_emails_to_idx').on(t.to)],
);

/**
 * Mail that must reach its recipient (welcome, password reset, account notices): written in the
 * same transaction as the change that causes it, delivered by a job, retried until sent. The
 * body is cleared once sent, so a reset link does not stay readable in the database.
 */
export const mailQueue = table(
  'mail_queue',
  {
    id: text('id').primaryKey(),
    to: text('to').notNull(),
    subject: text('subject').notNull(),
    html: text('html').notNull(),
    text: text('text'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    sentAt: timestamp('sent_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('mail_queue_unsent_idx')
      .on(t.createdAt)
      .where(sql`${t.sentAt} IS NULL`),
  ],
);

/**
 * The tutor's conversation, per member and lesson: a question and its answer are stored together,
 * only once the answer is complete, so a failed answer leaves nothing behind. An answer keeps
 * its Markdown and the sanitized HTML shown for it.
 */
export const tutorMessages = table(
  'tutor_messages',
  {
    id: generatedId(),
    userId: text('user_id').notNull().references(users.id, cascade),
    lessonId: integer('lesson_id').notNull().references(lessons.id, cascade),
    role: text('role', { enum: TUTOR_ROLES }).notNull(),
    content: text('content').notNull(),
    html: text('html'),
    createdAt: createdAt(),
  },
  (t) => [index('tutor_messages_member_lesson_idx').on(t.userId, t.lessonId, t.id)],
);

export interface QuizQuestion {
  question: string;
  options: string[];
  /** Index of the right option. */
  answer: number;
  explanation: string;
}

/**
 * Topic quizzes and the final exam (ADR 0018): written with the course, generated by a job like
 * a lesson. `questions` holds the answer key and explanations: only the service that marks a
 * submission reads them, never a page before the member submits.
 */
export const quizzes = table(
  'quizzes',
  {
    id: generatedId(),
    courseId: text('course_id').notNull().references(courses.id, cascade),
    /** The topic it follows; null for the exam. */
    topicId: integer('topic_id').references(topics.id, cascade),
    kind: text('kind', { enum: QUIZ_KINDS }).notNull(),
    title: text('title').notNull(),
    questionCount: integer('question_count').notNull(),
    questions: json('questions').$type<QuizQuestion[]>(),
    state: text('state', { enum: GENERATION_STATES }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    generatedAt: timestamp('generated_at'),
  },
  (t) => [
    index('quizzes_course_idx').on(t.courseId, t.id),
    index('quizzes_unfinished_idx')
      .on(t.state)
      .where(sql`${t.state} != 'done'`),
  ],
);

/** Every submission of a quiz: the answers chosen and the score, kept for each retake. */
export const quizAttempts = table(
  'quiz_attempts',
  {
    id: generatedId(),
    quizId: integer('quiz_id').notNull().references(quizzes.id, cascade),
    userId: text('user_id').notNull().references(users.id, cascade),
    answers: json('answers').$type<number[]>().notNull(),
    score: integer('score').notNull(),
    total: integer('total').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('quiz_attempts_quiz_idx').on(t.quizId, t.id)],
);

/**
 * A member's notes on one lesson (issue 13): one row per member and lesson, the last write wins.
 * `revision` counts saves, so a page can tell which save the server holds.
 */
export const lessonNotes = table(
  'lesson_notes',
  {
    id: generatedId(),
    userId: text('user_id').notNull().references(users.id, cascade),
    lessonId: integer('lesson_id').notNull().references(lessons.id, cascade),
    body: text('body').notNull().default(''),
    revision: integer('revision').notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('lesson_notes_member_lesson_unique').on(t.userId, t.lessonId)],
);

/**
 * A lesson re-written on the member's request (ADR 0020): one row per lesson, the latest request.
 * While 'running' the lesson keeps its text; once 'done' `previous_theory` holds the text it
 * replaced, until it is restored (once) or the next regeneration replaces it. `token` names the
 * request's job, so a job of an earlier request never writes.
 */
export const lessonRegenerations = table(
  'lesson_regenerations',
  {
    lessonId: integer('lesson_id').primaryKey().references(lessons.id, cascade),
    courseId: text('course_id').notNull().references(courses.id, cascade),
    userId: text('user_id').notNull().references(users.id, cascade),
    token: text('token').notNull(),
    instruction: text('instruction').notNull().default(''),
    state: text('state', { enum: REGENERATION_STATES }).notNull().default('running'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    previousTheory: text('previous_theory'),
    requestedAt: timestamp('requested_at').notNull().defaultNow(),
    finishedAt: timestamp('finished_at'),
  },
  (t) => [
    index('lesson_regenerations_running_idx')
      .on(t.state)
      .where(sql`${t.state} = 'running'`),
  ],
);

/**
 * The kept versions of a lesson's text (ADR 0059), newest last: how each came to be (`kind`, the
 * regeneration's `instruction`, the version a restore copied), when, and the text as readers see
 * it (`theory`, sanitized HTML) with the Markdown it was written in when known (an edit). The
 * text written first is recorded when it is first replaced; at most MAX_LESSON_VERSIONS a lesson
 * (the oldest go).
 */
export const lessonVersions = table(
  'lesson_versions',
  {
    id: generatedId(),
    lessonId: integer('lesson_id').notNull().references(lessons.id, cascade),
    kind: text('kind', { enum: LESSON_VERSION_KINDS }).notNull(),
    instruction: text('instruction').notNull().default(''),
    restoredFrom: integer('restored_from'),
    title: text('title').notNull(),
    theory: text('theory').notNull(),
    markdown: text('markdown'),
    createdAt: createdAt(),
  },
  (t) => [index('lesson_versions_lesson_idx').on(t.lessonId, t.id)],
);

/**
 * A course its owner made public (ADR 0021): anyone with the link `/share/:token` can read it.
 * The token is kept as it is (the owner's page shows the link again); revoking deletes the row,
 * and sharing again makes a new token, so an old link never comes back.
 */
export const courseShares = table(
  'course_shares',
  {
    courseId: text('course_id').primaryKey().references(courses.id, cascade),
    token: text('token').notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('course_shares_token_unique').on(t.token)],
);

/**
 * Demo mode only: what the simulated payment providers (`mocks/paypal.ts`, `mocks/razorpay.ts`)
 * keep on their side, one record a row as JSON (a subscription, a pending approval). In the
 * database, so that every web and worker process changes it in transactions and none loses
 * another's write (ADR 0037).
 */
export const demoProviderRecords = table(
  'demo_provider_records',
  {
    provider: text('provider', { enum: PAYMENT_PROVIDERS }).notNull(),
    kind: text('kind').notNull(),
    id: text('id').notNull(),
    data: json('data').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.kind, t.id] })],
);

/**
 * Demo mode only: the webhooks the simulated providers send, each retried with backoff until the
 * app takes it, as real providers do (ADR 0037). `next_attempt_at` is null once delivered or
 * given up.
 */
export const demoWebhookDeliveries = table(
  'demo_webhook_deliveries',
  {
    id: generatedId(),
    provider: text('provider', { enum: PAYMENT_PROVIDERS }).notNull(),
    body: text('body').notNull(),
    headers: json('headers').$type<Record<string, string>>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at'),
    deliveredAt: timestamp('delivered_at'),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (t) => [
    index('demo_webhook_deliveries_due_idx')
      .on(t.nextAttemptAt)
      .where(sql`${t.nextAttemptAt} is not null`),
  ],
);

/**
 * Flashcards with spaced repetition (ADR 0033). A lesson's deck is owed from the moment its text
 * is stored (a row here, in the same transaction) and written by a `flashcards` job like a quiz;
 * lessons written before the feature get their row when their member first opens Review.
 */
export const flashcardDecks = table(
  'flashcard_decks',
  {
    lessonId: integer('lesson_id').primaryKey().references(lessons.id, cascade),
    courseId: text('course_id').notNull().references(courses.id, cascade),
    state: text('state', { enum: GENERATION_STATES }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    generatedAt: timestamp('generated_at'),
    /**
     * The lesson's text changed after these cards were written from it (ADR 0061): set by every
     * write that replaces a written lesson's text, cleared when a deck is stored from the current
     * text. The member is offered to rewrite the deck, never rewritten unasked.
     */
    lessonChanged: boolean('lesson_changed').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index('flashcard_decks_course_idx').on(t.courseId),
    index('flashcard_decks_unfinished_idx')
      .on(t.state)
      .where(sql`${t.state} != 'done'`),
  ],
);

/** One question and its short answer, from a lesson's deck; its member may edit it. */
export const flashcards = table(
  'flashcards',
  {
    id: generatedId(),
    lessonId: integer('lesson_id').notNull().references(lessons.id, cascade),
    courseId: text('course_id').notNull().references(courses.id, cascade),
    position: integer('position').notNull(),
    question: text('question').notNull(),
    answer: text('answer').notNull(),
    /** When the member last changed the text; null while it is as the AI wrote it. */
    editedAt: timestamp('edited_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('flashcards_lesson_position_unique').on(t.lessonId, t.position),
    index('flashcards_course_idx').on(t.courseId),
  ],
);

/**
 * Where a card stands for a member: the FSRS memory state (ts-fsrs's Card fields) and when it is
 * due next, or suspended. One row per member and card, written with the card (state 0, New).
 */
export const flashcardSchedules = table(
  'flashcard_schedules',
  {
    userId: text('user_id').notNull().references(users.id, cascade),
    cardId: integer('card_id').notNull().references(flashcards.id, cascade),
    due: timestamp('due').notNull(),
    stability: float('stability').notNull().default(0),
    difficulty: float('difficulty').notNull().default(0),
    elapsedDays: integer('elapsed_days').notNull().default(0),
    scheduledDays: integer('scheduled_days').notNull().default(0),
    learningSteps: integer('learning_steps').notNull().default(0),
    reps: integer('reps').notNull().default(0),
    lapses: integer('lapses').notNull().default(0),
    /** ts-fsrs's State: 0 New, 1 Learning, 2 Review, 3 Relearning. */
    state: integer('state').notNull().default(0),
    lastReview: timestamp('last_review'),
    suspended: boolean('suspended').notNull().default(false),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.cardId] }),
    // The member's queue (in this order: no sort) and counts: cards not suspended, by due time.
    index('flashcard_schedules_due_idx').on(t.userId, t.suspended, t.due, t.cardId),
    index('flashcard_schedules_card_idx').on(t.cardId),
  ],
);

/** Every grade a member gave a card: the history FSRS's parameters can later be fitted to. */
export const flashcardReviews = table(
  'flashcard_reviews',
  {
    id: generatedId(),
    userId: text('user_id').notNull().references(users.id, cascade),
    cardId: integer('card_id').notNull().references(flashcards.id, cascade),
    /** 1 Again, 2 Hard, 3 Good, 4 Easy. */
    rating: integer('rating').notNull(),
    /** The card's FSRS state before this grade. */
    state: integer('state').notNull(),
    elapsedDays: integer('elapsed_days').notNull(),
    /** Days until the card is due again after this grade. */
    scheduledDays: integer('scheduled_days').notNull(),
    reviewedAt: timestamp('reviewed_at').notNull(),
  },
  (t) => [index('flashcard_reviews_card_idx').on(t.cardId, t.id)],
);

/**
 * Personal API tokens (ADR 0035): `Authorization: Bearer …` on any `/api` route acts as the
 * member. Only the token's SHA-256 is kept (it is shown once, when made); at most 10 a member.
 * Deleted with every session when the password changes.
 */
export const apiTokens = table(
  'api_tokens',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull().references(users.id, cascade),
    name: text('name').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdAt: createdAt(),
    lastUsedAt: timestamp('last_used_at'),
  },
  (t) => [
    uniqueIndex('api_tokens_token_hash_unique').on(t.tokenHash),
    index('api_tokens_user_idx').on(t.userId, t.createdAt),
  ],
);

/**
 * Values an install keeps once for all its processes and nodes (ADR 0039). With PostgreSQL
 * (`DATABASE_URL`) it holds the install id (`install_id`), so every node agrees on it; with
 * SQLite the id stays in DATA_DIR, as before.
 */
export const settings = table('settings', {
  key: text('key').primaryKey(),
  value: text('value').notNull(),
  updatedAt: updatedAt(),
});

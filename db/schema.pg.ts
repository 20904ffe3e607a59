import { postgresTables } from './dialects';
import * as definitions from './tables';

/**
 * The PostgreSQL tables (`DATABASE_URL`, ADR 0039): the schema of `db/tables.ts` built for
 * PostgreSQL, under the same names as `db/schema.ts`'s SQLite tables. drizzle-kit generates
 * `migrations/postgres` from this file; `db/schema-parity.test.ts` checks that the two builds
 * still agree table for table.
 */
export const {
  users,
  sessions,
  passwordResetTokens,
  emailChangeTokens,
  outlines,
  sourceDocuments,
  courses,
  topics,
  lessons,
  courseCompletions,
  subscriptions,
  receipts,
  keptReceipts,
  paymentEvents,
  contacts,
  adminAudit,
  policies,
  outboxEmails,
  mailQueue,
  tutorMessages,
  quizzes,
  quizAttempts,
  lessonNotes,
  lessonRegenerations,
  lessonVersions,
  courseShares,
  demoProviderRecords,
  demoWebhookDeliveries,
  flashcardDecks,
  flashcards,
  flashcardSchedules,
  flashcardReviews,
  apiTokens,
  settings,
} = postgresTables(definitions);

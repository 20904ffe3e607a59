import { sqliteTables } from './dialects';
import * as definitions from './tables';

/**
 * The SQLite tables: the schema of `db/tables.ts` (every table, declared once for both
 * databases, ADR 0049) built for SQLite. drizzle-kit generates `migrations/sqlite` from this
 * file; model code is typed against these tables (ADR 0039), and app code takes the types below
 * from here.
 */
export * from './enums';
export type { BillingCustomer, LessonSource, MaterialSection, QuizQuestion } from './tables';

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
} = sqliteTables(definitions);

import { and, asc, eq } from 'drizzle-orm';
import { database, tables } from '~/utils/database.server';

/**
 * A member's own rows as their data export reads them (issue 38, ADR 0060): everything they
 * made or did, one course at a time where a course holds it, so an export never holds more than
 * one course's rows at once. Other models already read the rest (the courses, their notes and
 * cards, receipts).
 */

export async function subscriptionsOfMember(userId: string) {
  const { subscriptions } = tables;
  return database()
    .select()
    .from(subscriptions)
    .where(eq(subscriptions.userId, userId))
    .orderBy(asc(subscriptions.createdAt), asc(subscriptions.id));
}

/** Outlines asked for on /create, with the course made from each (or none yet). */
export async function outlinesOfMember(userId: string) {
  const { outlines } = tables;
  return database()
    .select({
      id: outlines.id,
      mainTopic: outlines.mainTopic,
      subtopics: outlines.subtopics,
      topicCount: outlines.topicCount,
      courseType: outlines.courseType,
      language: outlines.language,
      state: outlines.state,
      topics: outlines.result,
      courseId: outlines.courseId,
      createdAt: outlines.createdAt,
    })
    .from(outlines)
    .where(eq(outlines.userId, userId))
    .orderBy(asc(outlines.createdAt), asc(outlines.id));
}

export async function documentsOfMember(userId: string) {
  const { sourceDocuments } = tables;
  return database()
    .select()
    .from(sourceDocuments)
    .where(eq(sourceDocuments.userId, userId))
    .orderBy(asc(sourceDocuments.createdAt), asc(sourceDocuments.id));
}

/** The member's tutor conversations on a course's lessons, lesson by lesson, oldest first. */
export async function tutorMessagesOfCourse(userId: string, courseId: string) {
  const { lessons, tutorMessages } = tables;
  return database()
    .select({
      lessonId: lessons.id,
      lessonTitle: lessons.title,
      role: tutorMessages.role,
      content: tutorMessages.content,
      createdAt: tutorMessages.createdAt,
    })
    .from(tutorMessages)
    .innerJoin(lessons, eq(lessons.id, tutorMessages.lessonId))
    .where(and(eq(tutorMessages.userId, userId), eq(lessons.courseId, courseId)))
    .orderBy(asc(lessons.ordinal), asc(tutorMessages.id));
}

/** Every submission of the course's quizzes by the member, with the quiz it answered. */
export async function quizAttemptsOfCourse(userId: string, courseId: string) {
  const { quizAttempts, quizzes } = tables;
  return database()
    .select({
      quizId: quizzes.id,
      quizTitle: quizzes.title,
      kind: quizzes.kind,
      questions: quizzes.questions,
      answers: quizAttempts.answers,
      score: quizAttempts.score,
      total: quizAttempts.total,
      submittedAt: quizAttempts.createdAt,
    })
    .from(quizAttempts)
    .innerJoin(quizzes, eq(quizzes.id, quizAttempts.quizId))
    .where(and(eq(quizAttempts.userId, userId), eq(quizzes.courseId, courseId)))
    .orderBy(asc(quizAttempts.id));
}

/** Every grade the member gave a card of the course, oldest first. */
export async function flashcardReviewsOfCourse(userId: string, courseId: string) {
  const { flashcardReviews, flashcards } = tables;
  return database()
    .select({
      cardId: flashcardReviews.cardId,
      rating: flashcardReviews.rating,
      state: flashcardReviews.state,
      elapsedDays: flashcardReviews.elapsedDays,
      scheduledDays: flashcardReviews.scheduledDays,
      reviewedAt: flashcardReviews.reviewedAt,
    })
    .from(flashcardReviews)
    .innerJoin(flashcards, eq(flashcards.id, flashcardReviews.cardId))
    .where(and(eq(flashcardReviews.userId, userId), eq(flashcards.courseId, courseId)))
    .orderBy(asc(flashcardReviews.id));
}

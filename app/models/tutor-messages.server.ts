import { and, desc, eq } from 'drizzle-orm';
import type { tutorMessages } from '../../db/schema';
import { database, tables, transaction } from '~/utils/database.server';

export type TutorMessage = Pick<
  typeof tutorMessages.$inferSelect,
  'id' | 'role' | 'content' | 'html' | 'createdAt'
>;

/** The conversation so far, oldest first (the last `limit` messages). */
export async function listTutorMessages(
  userId: string,
  lessonId: number,
  limit = 200,
): Promise<TutorMessage[]> {
  const { tutorMessages } = tables;
  const newestFirst = await database()
    .select({
      id: tutorMessages.id,
      role: tutorMessages.role,
      content: tutorMessages.content,
      html: tutorMessages.html,
      createdAt: tutorMessages.createdAt,
    })
    .from(tutorMessages)
    .where(and(eq(tutorMessages.userId, userId), eq(tutorMessages.lessonId, lessonId)))
    .orderBy(desc(tutorMessages.id))
    .limit(limit);
  return newestFirst.reverse();
}

/** A question and its complete answer, stored together or not at all. */
export async function storeTutorExchange(
  userId: string,
  lessonId: number,
  question: string,
  answer: { markdown: string; html: string },
): Promise<TutorMessage[]> {
  const { tutorMessages } = tables;
  return transaction(async (tx) =>
    tx
      .insert(tutorMessages)
      .values([
        { userId, lessonId, role: 'user', content: question },
        { userId, lessonId, role: 'assistant', content: answer.markdown, html: answer.html },
      ])
      .returning({
        id: tutorMessages.id,
        role: tutorMessages.role,
        content: tutorMessages.content,
        html: tutorMessages.html,
        createdAt: tutorMessages.createdAt,
      }),
  );
}

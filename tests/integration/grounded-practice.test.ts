import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type RunningApp } from '../support/app-process';
import { printedPdf } from '../support/material-fixtures';
import {
  appDatabase,
  closeAppDatabases,
  createMember,
  sessionCookieValue,
} from '../support/members';
import { first, tables } from '~/utils/database.server';

/**
 * The practice of a course made from a member's document asks about the document (issue 37,
 * ADR 0058): through the production server and its worker in demo mode, a printed PDF becomes a
 * course whose topic quizzes, final exam and flashcards are written from the passages its lessons
 * quote, not from the lesson titles alone.
 */
let app: RunningApp;

beforeAll(async () => {
  app = await startApp({ MOCK_AI_STREAM_CHUNK_MS: '0' });
}, 180_000);

afterAll(async () => {
  await closeAppDatabases();
  await app?.stop();
});

const SUBJECTS = [
  'Glob patterns',
  'Magic rules',
  'Subclassing',
  'Aliases',
  'Icons',
  'Storage format',
  'Cache files',
];
/** Each section says things only it says, so a sentence tells which section it came from. */
const SECTIONS = SUBJECTS.map((subject, i) => {
  const s = subject.toLowerCase();
  return {
    heading: `${i + 1}. ${subject}`,
    text: [
      `The ${s} part of the database is read when a file is opened.`,
      `Each entry of the ${s} names one type and the rule that finds it.`,
      `A program that ignores the ${s} may show the wrong icon for a file.`,
      `Packaging tools write the ${s}, and nobody edits them by hand.`,
    ].join(' '),
  };
}).map((section) => ({ ...section, text: `${section.text} ${section.text}` }));

const squeeze = (text: string) => text.replace(/\s+/g, ' ').trim();
/** The section a lesson teaches: the one whose heading its title names (ADR 0058's plan). */
const sectionOf = (lessonTitle: string) => {
  const section = SECTIONS.find((s) => lessonTitle.includes(s.heading));
  if (!section) throw new Error(`"${lessonTitle}" names no section`);
  return section;
};

async function waitFor<T>(probe: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe('a course made from a document', () => {
  it('gets quizzes and flashcards that ask what its lessons’ sections say', async () => {
    const member = await createMember(app, { plan: 'monthly' });
    const headers = {
      Cookie: `__session=${await sessionCookieValue(app, member)}`,
      Origin: app.baseURL,
    };
    const form = new FormData();
    form.append('topic', 'Shared MIME-info');
    form.append('topicCount', '5');
    form.append('type', 'text');
    const pdf = await printedPdf({ title: 'Shared MIME-info Database', sections: SECTIONS });
    form.append('document', new Blob([new Uint8Array(pdf)]), 'mime-spec.pdf');
    const created = await fetch(`${app.baseURL}/create`, {
      method: 'POST',
      headers,
      body: form,
      redirect: 'manual',
    });
    expect(created.status).toBe(302);
    const outlineId = created.headers.get('location')!.split('/topics/')[1]!;
    const db = appDatabase(app);
    const { flashcardDecks, flashcards, lessons, outlines, quizzes } = tables;
    await waitFor(async () => {
      const outline = await first(db.select().from(outlines).where(eq(outlines.id, outlineId)));
      return outline?.state === 'done' ? true : undefined;
    }, 'the outline');
    const generated = await fetch(`${app.baseURL}/topics/${outlineId}`, {
      method: 'POST',
      headers,
      redirect: 'manual',
    });
    expect(generated.status).toBe(302);
    const courseId = generated.headers.get('location')!.split('/course/')[1]!;

    const written = await waitFor(async () => {
      const rows = await db.select().from(quizzes).where(eq(quizzes.courseId, courseId));
      return rows.length > 0 && rows.every((quiz) => quiz.questions) ? rows : undefined;
    }, 'the quizzes');
    const courseLessons = await db
      .select()
      .from(lessons)
      .where(eq(lessons.courseId, courseId))
      .orderBy(asc(lessons.ordinal));
    // The outline teaches every section (grouped into the 5 topics asked for).
    expect(new Set(courseLessons.map((lesson) => sectionOf(lesson.title).heading)).size).toBe(
      SECTIONS.length,
    );

    for (const quiz of written) {
      const taught = courseLessons
        .filter((lesson) => quiz.topicId === null || lesson.topicId === quiz.topicId)
        .map((lesson) => sectionOf(lesson.title));
      const asked = new Set<string>();
      for (const question of quiz.questions!) {
        const right = question.options[question.answer]!;
        // The question names a section of the quiz's lessons, and its right option is what that
        // section says; no other option is.
        const section = taught.find((s) => question.question.includes(`"${s.heading}"`));
        expect(section, `${quiz.title}: ${question.question}`).toBeDefined();
        expect(squeeze(section!.text)).toContain(right);
        for (const option of question.options.filter((o) => o !== right))
          expect(squeeze(section!.text)).not.toContain(option);
        asked.add(section!.heading);
      }
      // A topic quiz asks about each of its sections; the exam about the whole document.
      expect([...asked].sort()).toEqual([...new Set(taught.map((s) => s.heading))].sort());
    }

    await waitFor(async () => {
      const decks = await db
        .select()
        .from(flashcardDecks)
        .where(eq(flashcardDecks.courseId, courseId));
      return decks.length === courseLessons.length && decks.every((d) => d.state === 'done')
        ? true
        : undefined;
    }, 'the flashcards');
    for (const lesson of courseLessons) {
      const cards = await db.select().from(flashcards).where(eq(flashcards.lessonId, lesson.id));
      const text = squeeze(sectionOf(lesson.title).text);
      // Some card of each lesson is answered by what the lesson's own section says.
      expect(
        cards.some((card) => card.answer.length > 20 && text.includes(card.answer)),
        `${lesson.title}: ${JSON.stringify(cards)}`,
      ).toBe(true);
      for (const card of cards) expect(card.question).not.toMatch(/^Which course teaches/);
    }
  }, 180_000);
});

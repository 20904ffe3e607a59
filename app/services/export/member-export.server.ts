import { Zip, type ZipInputFile } from 'fflate';
import { withAbsoluteImages } from '~/api/absolute-images.server';
import { planName } from '~/domain/plans';
import { fail, ok, type Result } from '~/domain/result';
import { cardsOfCourse } from '~/models/flashcards.server';
import {
  documentsOfMember,
  flashcardReviewsOfCourse,
  outlinesOfMember,
  quizAttemptsOfCourse,
  subscriptionsOfMember,
  tutorMessagesOfCourse,
} from '~/models/member-data.server';
import { listReceipts } from '~/models/subscriptions.server';
import type { User } from '~/models/users.server';
import { brand } from '~/services/brand.server';
import { receiptFilename } from '~/services/billing/receipt-document.server';
import { courseRecordPage, decodeCursor } from '~/services/course-list.server';
import type { RequestLike } from '~/utils/json-route.server';
import { memberSlots } from '~/utils/member-slots';
import { providerReturnBase } from '~/utils/public-url.server';
import { exportableCourse, exportSlug, type ExportCourse } from './course-export.server';
import type { ArchiveFile, PackedFile } from './export-jobs.server';
import { packFilesOffThread } from './export-pool.server';
import { EXPORT_README } from './member-export-readme.server';

/**
 * "Export my data" (issue 38, ADR 0060): everything of a member in one zip, streamed to the
 * browser as it is made. The request thread reads the database one part at a time (the account,
 * each document, each course) only when the browser has taken what came before; the export
 * thread renders and deflates each part (export-pool.server.ts, taking turns with PDFs and
 * other members); fflate's zip writer only frames the deflated files here.
 */

/** Exports one member may have under way at once in a web process, as for PDFs (ADR 36). */
const MAX_DATA_EXPORTS_PER_MEMBER = 2;
const DATA_EXPORTS_BUSY_MESSAGE =
  'Your other data exports are still being made. Please try again in a few seconds.';
const DATA_EXPORTS_RETRY_AFTER_SECONDS = 5;
const dataExportSlots = memberSlots(MAX_DATA_EXPORTS_PER_MEMBER);

/** Courses read per page: each page's records hold their content, so a page stays small. */
const COURSES_PER_PAGE = 10;

const exportFilename = async (now: Date) =>
  `${exportSlug((await brand()).name)}-my-data-${now.toISOString().slice(0, 10)}.zip`;

/** The account: profile, plan, subscriptions with their receipts, and each receipt's PDF. */
async function accountFiles(user: User): Promise<ArchiveFile[]> {
  const subscriptions = await subscriptionsOfMember(user.id);
  const receipts = await listReceipts(user.id);
  const company = (await brand()).name;
  const byId = new Map(subscriptions.map((row) => [row.id, row]));
  return [
    {
      name: 'account/profile.json',
      kind: 'json',
      value: {
        id: user.id,
        name: user.name,
        email: user.email,
        plan: user.plan,
        planName: planName(user.plan),
        role: user.role,
        createdAt: user.createdAt,
        updatedAt: user.updatedAt,
      },
    },
    {
      name: 'account/subscriptions.json',
      kind: 'json',
      value: subscriptions.map((row) => ({
        provider: row.provider,
        subscriptionId: row.providerSubscriptionId,
        plan: row.plan,
        status: row.status,
        amountCents: row.amountCents,
        currency: row.currency,
        startedAt: row.startedAt,
        nextBillingAt: row.nextBillingAt,
        cancelledAt: row.cancelledAt,
        paidUntil: row.paidUntil,
        customer: row.customer,
        createdAt: row.createdAt,
        receipts: receipts
          .filter((receipt) => receipt.subscriptionId === row.id)
          .map((receipt) => ({
            number: receipt.number,
            file: `account/receipts/${receiptFilename(receipt)}`,
            plan: receipt.plan,
            amountCents: receipt.amountCents,
            currency: receipt.currency,
            paidAt: receipt.paidAt,
          })),
      })),
    },
    ...receipts.flatMap((receipt): ArchiveFile[] => {
      const subscription = byId.get(receipt.subscriptionId);
      return subscription
        ? [
            {
              name: `account/receipts/${receiptFilename(receipt)}`,
              kind: 'receipt-pdf',
              receipt,
              subscription,
              company,
            },
          ]
        : [];
    }),
  ];
}

async function outlineFiles(userId: string): Promise<ArchiveFile[]> {
  return [{ name: 'outlines.json', kind: 'json', value: await outlinesOfMember(userId) }];
}

/** Each uploaded or pasted document's text, section by section, as it was read. */
async function* documentFiles(userId: string): AsyncGenerator<ArchiveFile[]> {
  const documents = await documentsOfMember(userId);
  for (const document of documents) {
    const text = document.sections
      .map((section) => `## ${section.heading}\n\n${section.text.trim()}\n`)
      .join('\n');
    yield [
      {
        name: `documents/${exportSlug(document.name)}-${document.id}.md`,
        kind: 'text',
        text: `# ${document.name}\n\n${text}`,
      },
    ];
  }
}

type FlashcardReview = Awaited<ReturnType<typeof flashcardReviewsOfCourse>>[number];

function lessonsById(course: ExportCourse) {
  return new Map(
    course.topics.flatMap((topic) =>
      topic.lessons.map((lesson) => [lesson.id, { topic: topic.title, lesson }] as const),
    ),
  );
}

/** One course: its record (the spec's shape), its Markdown, and the member's own work on it. */
async function courseFiles(
  userId: string,
  record: { _id: string; mainTopic: string },
  recordFile: unknown,
  origin: string,
): Promise<ArchiveFile[]> {
  const course = await exportableCourse(userId, record._id, { notes: true });
  // Deleted while the export ran: it is no longer the member's data.
  if (!course) return [];
  const folder = `courses/${exportSlug(record.mainTopic)}-${record._id}`;
  const lessons = lessonsById(course);
  const where = (lessonId: number) => {
    const found = lessons.get(lessonId);
    return { topic: found?.topic ?? '', lesson: found?.lesson.title ?? '' };
  };
  const notes = [...lessons.entries()].flatMap(([lessonId, { lesson }]) =>
    lesson.note ? [{ ...where(lessonId), note: lesson.note }] : [],
  );
  const tutor = (await tutorMessagesOfCourse(userId, course.id)).map((message) => ({
    ...where(message.lessonId),
    role: message.role,
    content: message.content,
    at: message.createdAt,
  }));
  const attempts = (await quizAttemptsOfCourse(userId, course.id)).map((attempt) => ({
    quiz: attempt.quizTitle,
    kind: attempt.kind,
    score: attempt.score,
    total: attempt.total,
    submittedAt: attempt.submittedAt,
    answers: attempt.answers.map((chosen, index) => {
      const question = attempt.questions?.[index];
      return {
        question: question?.question ?? null,
        chosen: question?.options[chosen] ?? null,
        right: question ? question.options[question.answer] : null,
      };
    }),
  }));
  const reviews = new Map<number, Omit<FlashcardReview, 'cardId'>[]>();
  for (const { cardId, ...review } of await flashcardReviewsOfCourse(userId, course.id)) {
    const ofCard = reviews.get(cardId);
    if (ofCard) ofCard.push(review);
    else reviews.set(cardId, [review]);
  }
  const cards = (await cardsOfCourse(course.id, userId)).map((card) => ({
    ...where(card.lessonId),
    question: card.question,
    answer: card.answer,
    editedAt: card.editedAt,
    due: card.due,
    suspended: card.suspended,
    reviews: reviews.get(card.id) ?? [],
  }));
  return [
    { name: `${folder}/course.json`, kind: 'json', value: recordFile },
    { name: `${folder}/course.md`, kind: 'course-markdown', course, origin },
    { name: `${folder}/notes.json`, kind: 'json', value: notes },
    { name: `${folder}/tutor.json`, kind: 'json', value: tutor },
    { name: `${folder}/quiz-attempts.json`, kind: 'json', value: attempts },
    { name: `${folder}/flashcards.json`, kind: 'json', value: cards },
  ];
}

/** The member's courses, newest first, a page of records at a time. */
async function* everyCourse(
  userId: string,
  request: RequestLike,
  origin: string,
): AsyncGenerator<ArchiveFile[]> {
  let after = null;
  for (;;) {
    const page = await courseRecordPage(userId, { limit: COURSES_PER_PAGE, after });
    for (const record of page.records)
      yield await courseFiles(userId, record, withAbsoluteImages(record, request), origin);
    after = page.nextCursor ? decodeCursor(page.nextCursor) : null;
    if (!after) return;
  }
}

/** Every part of the export, in the order of the zip. */
async function* exportParts(user: User, request: RequestLike): AsyncGenerator<ArchiveFile[]> {
  const origin = providerReturnBase(request);
  yield [{ name: 'README.md', kind: 'text', text: EXPORT_README }];
  yield await accountFiles(user);
  yield await outlineFiles(user.id);
  yield* documentFiles(user.id);
  yield* everyCourse(user.id, request, origin);
}

/** A file deflated on the export thread, handed to fflate's zip writer as it is. */
function addPacked(zip: Zip, file: PackedFile, mtime: Date) {
  const input: ZipInputFile = {
    filename: file.name,
    size: file.size,
    crc: file.crc,
    compression: 8,
    mtime,
  };
  zip.add(input);
  input.ondata!(null, file.data, true);
}

/**
 * The zip's bytes, made as the reader asks for them: a part is read, rendered and framed only
 * when the bytes before it are taken. The web server's writer (Remix's express adapter) reads on
 * without waiting for a slow socket, so what bounds memory there is the socket, not this stream
 * (ADR 0060); a download the browser gives up (the request's signal) stops the export.
 */
function memberExportStream(
  user: User,
  request: Request,
  release: () => void,
): ReadableStream<Uint8Array<ArrayBuffer>> {
  const parts = exportParts(user, request);
  const now = new Date();
  // fflate's chunks are views of plain ArrayBuffers, never shared ones.
  const ready: Uint8Array<ArrayBuffer>[] = [];
  let failure: Error | null = null;
  let ended = false;
  const zip = new Zip((error, chunk, final) => {
    if (error) failure = error;
    else ready.push(chunk as Uint8Array<ArrayBuffer>);
    if (final) ended = true;
  });
  return new ReadableStream<Uint8Array<ArrayBuffer>>({
    async pull(controller) {
      try {
        while (ready.length === 0 && !ended) {
          if (request.signal.aborted) throw new Error('The download was given up');
          const next = await parts.next();
          if (next.done) zip.end();
          else
            for (const file of await packFilesOffThread(user.id, next.value))
              addPacked(zip, file, now);
          if (failure) throw failure;
        }
        for (const chunk of ready.splice(0)) controller.enqueue(chunk);
        if (ended) {
          release();
          controller.close();
        }
      } catch (error) {
        release();
        controller.error(error);
        await parts.return(undefined);
      }
    },
    async cancel() {
      release();
      await parts.return(undefined);
    },
  });
}

/**
 * The member's export, or a 429 while they already have MAX_DATA_EXPORTS_PER_MEMBER under way in
 * this process (the slot is held until the last byte is sent or the download stops).
 */
export async function startDataExport(
  user: User,
  request: Request,
): Promise<Result<{ filename: string; body: ReadableStream<Uint8Array<ArrayBuffer>> }>> {
  const filename = await exportFilename(new Date());
  const release = dataExportSlots.take(user.id);
  if (!release) return fail(DATA_EXPORTS_BUSY_MESSAGE, 429, DATA_EXPORTS_RETRY_AFTER_SECONDS);
  return ok({
    filename,
    body: memberExportStream(user, request, release),
  });
}

/** The zip as a download, never cached by anyone else. */
export function dataExportResponse(
  filename: string,
  body: ReadableStream<Uint8Array<ArrayBuffer>>,
) {
  return new Response(body, {
    headers: {
      'Content-Type': 'application/zip',
      'Content-Disposition': `attachment; filename="${filename}"`,
      'Cache-Control': 'private, no-store',
    },
  });
}

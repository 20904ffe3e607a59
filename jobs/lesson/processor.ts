import { UnrecoverableError, type Job } from 'bullmq';
import { setCoursePhoto } from '~/models/courses.server';
import {
  getLesson,
  getLessonJobContext,
  markLessonRunning,
  markLessonWaiting,
  recordLessonFailure,
  serializeCredit,
  storeLessonContent,
  storeLessonMedia,
  type LessonJobContext,
  type LessonMedia,
} from '~/models/lessons.server';
import { describeAiFailure } from '~/services/vendors/ai.server';
import {
  type LessonText,
  streamLesson,
  streamTranscriptSummary,
} from '~/services/vendors/ai-lessons.server';
import {
  imageQuery,
  searchImage,
  searchVideo,
  transcriptText,
  videoQuery,
  type Image,
} from '~/services/vendors/media.server';
import { lessonPassages } from '~/services/material/lesson-passages.server';
import type { LessonSource } from '../../db/schema';
import { publishChange } from '~/utils/changes.server';
import { startDraft, type DraftWriter } from '~/utils/drafts.server';
import { log } from '~/utils/logger.server';
import { recordWritten } from '~/utils/metrics.server';
import { errorMessage, reportProgress, waitOutRateLimit } from '~/queues/retry.server';
import { lessonQueue } from '~/queues/lesson.server';
import { ensureFlashcardJobs } from '~/queues/flashcards.server';

interface FoundMedia {
  media: LessonMedia;
  /** The course card photo, looked for by the first lesson only. */
  photo?: Image | null;
}

/** The lesson's image (theory and image) or video (video and theory). Throws when a vendor fails. */
async function findMedia({ lesson, course, isFirst }: LessonJobContext): Promise<FoundMedia> {
  const wantsPhoto = isFirst && !course.photoUrl;
  if (course.type === 'text') {
    const image = await searchImage(imageQuery(lesson.title, course.mainTopic));
    return {
      media: { imageUrl: image?.url ?? null, imageCredit: image?.credit ?? null },
      photo: wantsPhoto ? image : undefined,
    };
  }
  const [videoId, photo] = await Promise.all([
    // A video an API client chose stays: only the card photo is looked for then.
    lesson.youtubeId ?? searchVideo(videoQuery(lesson.title, course.mainTopic)),
    wantsPhoto ? searchImage(course.mainTopic) : Promise.resolve(undefined),
  ]);
  return { media: { youtubeId: videoId }, photo };
}

interface Produced {
  text: LessonText;
  /** The sections of the course's material the text was written from. */
  sources: LessonSource[];
  found?: FoundMedia;
  mediaError?: unknown;
}

/**
 * Theory and media together. The theory must succeed (else the try fails);
 * a media failure only delays the media: the lesson is stored without it.
 */
async function produceLesson(
  context: LessonJobContext,
  onText: (delta: string) => void,
): Promise<Produced> {
  // The member's own material, when the course has some (ADR 0032): the lesson is written from
  // the passages relevant to it, and lists them as its sources.
  const { passages, sources } = await lessonPassages(context.course.id, {
    title: context.lesson.title,
    topicTitle: context.topicTitle,
  });
  const request = {
    mainTopic: context.course.mainTopic,
    lessonTitle: context.lesson.title,
    language: context.course.language,
    passages,
  };
  if (context.course.type === 'text') {
    const [text, media] = await Promise.allSettled([
      streamLesson(request, onText),
      findMedia(context),
    ]);
    if (text.status === 'rejected') throw text.reason;
    return media.status === 'fulfilled'
      ? { text: text.value, sources, found: media.value }
      : { text: text.value, sources, mediaError: media.reason };
  }
  let found: FoundMedia | undefined;
  let mediaError: unknown;
  try {
    found = await findMedia(context);
  } catch (error) {
    mediaError = error;
  }
  const videoId = found?.media.youtubeId;
  // The member's material, when it has passages for this lesson, comes before a video's transcript.
  const transcript = videoId && !passages ? await transcriptText(videoId) : null;
  const text = transcript
    ? await streamTranscriptSummary({ ...request, transcript }, onText)
    : await streamLesson(request, onText);
  return { text, sources, found, mediaError };
}

async function keepPhoto(context: LessonJobContext, found: FoundMedia | undefined) {
  const photo = found?.photo;
  if (photo)
    await setCoursePhoto(context.course.id, {
      url: photo.url,
      credit: serializeCredit(photo.credit),
    });
}

/**
 * The stored lesson owes its flashcards (ADR 0033): their job starts now. If Redis refuses, the
 * deck row is there and the sweep gives it a job, so this never fails the lesson.
 */
async function writeFlashcardsNext(lessonId: number, courseId: string) {
  try {
    await ensureFlashcardJobs([{ lessonId, courseId }]);
  } catch (error) {
    log.warn('flashcards.enqueue_failed', { lessonId, courseId, error: errorMessage(error) });
  }
}

/**
 * Generates one lesson and writes only that lesson's row. Safe to run twice:
 * a lesson already stored is never written again, and a job whose course was
 * deleted fails for good instead of retrying.
 */
export async function processLesson(job: Job, token?: string) {
  const { lessonId, courseId } = lessonQueue.payload.parse(job.data);
  const context = await getLessonJobContext(lessonId);
  if (!context)
    throw new UnrecoverableError(`Lesson ${lessonId} of course ${courseId} was deleted`);
  const { lesson } = context;
  if (lesson.state === 'done' && lesson.mediaState === 'done') return { lessonId, skipped: true };

  // Pages waiting on this course's status are woken by each write.
  const changed = () => publishChange(`course:${courseId}`);
  await markLessonRunning(lessonId, job.attemptsMade);
  changed();
  await reportProgress(job, 10);
  // The text as the model writes it, for members watching (ADR 17); this try's draft replaces any
  // earlier try's, and the stored lesson replaces the draft.
  let draft: DraftWriter | undefined;
  try {
    if (!lesson.theory) {
      draft = startDraft(`lesson:${lessonId}`);
      const produced = await produceLesson(context, draft.append);
      // Readers get the whole text before the stored lesson ends their stream.
      await draft.settled();
      const stored = await storeLessonContent(lessonId, {
        theory: produced.text.html,
        sources: produced.sources,
        media: produced.found?.media ?? {},
        mediaState: produced.mediaError ? 'retrying' : 'done',
      });
      if (stored) {
        log.info('lesson.stored', { jobId: job.id, lessonId, courseId, pid: process.pid });
        recordWritten('lesson');
        await writeFlashcardsNext(lessonId, courseId);
      } else if (produced.found && (await getLesson(lessonId))?.mediaState !== 'done')
        // The theory came from elsewhere meanwhile (e.g. /api/update): still finish
        // the media, filling only what that writer left empty.
        await storeLessonMedia(lessonId, produced.found.media);
      await keepPhoto(context, produced.found);
      changed();
      await draft.finish();
      await reportProgress(job, 80);
      if (produced.mediaError && (await getLesson(lessonId))?.mediaState !== 'done')
        throw produced.mediaError;
    } else {
      const found = await findMedia(context);
      await storeLessonMedia(lessonId, found.media);
      await keepPhoto(context, found);
      changed();
    }
    await reportProgress(job, 100);
    return { lessonId };
  } catch (error) {
    await draft?.finish();
    await waitOutRateLimit(job, token, error, describeAiFailure(error), async () => {
      await markLessonWaiting(lessonId, job.attemptsMade);
      changed();
    });
    const failures = job.attemptsMade + 1;
    await recordLessonFailure(lessonId, failures, errorMessage(error));
    changed();
    log.warn('lesson.try_failed', {
      jobId: job.id,
      lessonId,
      failures,
      error: errorMessage(error),
    });
    throw error;
  }
}

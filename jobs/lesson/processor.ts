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
import {
  describeAiFailure,
  streamLesson,
  streamTranscriptSummary,
  type LessonText,
} from '~/services/vendors/ai.server';
import {
  imageQuery,
  searchImage,
  searchVideo,
  transcriptText,
  videoQuery,
  type Image,
} from '~/services/vendors/media.server';
import { publishChange } from '~/utils/changes.server';
import { startDraft, type DraftWriter } from '~/utils/drafts.server';
import { log } from '~/utils/logger.server';
import { errorMessage, reportProgress, waitOutRateLimit } from '~/queues/retry.server';
import { lessonQueue } from '~/queues/lesson.server';

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
  const request = {
    mainTopic: context.course.mainTopic,
    subtopic: context.lesson.title,
    language: context.course.language,
  };
  if (context.course.type === 'text') {
    const [text, media] = await Promise.allSettled([
      streamLesson(request, onText),
      findMedia(context),
    ]);
    if (text.status === 'rejected') throw text.reason;
    return media.status === 'fulfilled'
      ? { text: text.value, found: media.value }
      : { text: text.value, mediaError: media.reason };
  }
  let found: FoundMedia | undefined;
  let mediaError: unknown;
  try {
    found = await findMedia(context);
  } catch (error) {
    mediaError = error;
  }
  const videoId = found?.media.youtubeId;
  const transcript = videoId ? await transcriptText(videoId) : null;
  const text = transcript
    ? await streamTranscriptSummary({ ...request, transcript }, onText)
    : await streamLesson(request, onText);
  return { text, found, mediaError };
}

function keepPhoto(context: LessonJobContext, found: FoundMedia | undefined) {
  const photo = found?.photo;
  if (photo)
    setCoursePhoto(context.course.id, { url: photo.url, credit: serializeCredit(photo.credit) });
}

/**
 * Generates one lesson and writes only that lesson's row. Safe to run twice:
 * a lesson already stored is never written again, and a job whose course was
 * deleted fails for good instead of retrying.
 */
export async function processLesson(job: Job, token?: string) {
  const { lessonId, courseId } = lessonQueue.payload.parse(job.data);
  const context = getLessonJobContext(lessonId);
  if (!context)
    throw new UnrecoverableError(`Lesson ${lessonId} of course ${courseId} was deleted`);
  const { lesson } = context;
  if (lesson.state === 'done' && lesson.mediaState === 'done') return { lessonId, skipped: true };

  // Pages waiting on this course's status are woken by each write.
  const changed = () => publishChange(`course:${courseId}`);
  markLessonRunning(lessonId, job.attemptsMade);
  changed();
  await reportProgress(job, 10);
  // The text as the model writes it, for members watching (ADR 17); this try's draft replaces any
  // earlier try's, and the stored lesson replaces the draft.
  let draft: DraftWriter | undefined;
  try {
    if (!lesson.theory) {
      draft = startDraft(`lesson:${lessonId}`);
      const produced = await produceLesson(context, draft.append);
      const stored = storeLessonContent(lessonId, {
        theory: produced.text.html,
        media: produced.found?.media ?? {},
        mediaState: produced.mediaError ? 'retrying' : 'done',
      });
      if (stored)
        log.info('lesson.stored', { jobId: job.id, lessonId, courseId, pid: process.pid });
      else if (produced.found && getLesson(lessonId)?.mediaState !== 'done')
        // The theory came from elsewhere meanwhile (e.g. /api/update): still finish
        // the media, filling only what that writer left empty.
        storeLessonMedia(lessonId, produced.found.media);
      keepPhoto(context, produced.found);
      changed();
      await draft.finish();
      await reportProgress(job, 80);
      if (produced.mediaError && getLesson(lessonId)?.mediaState !== 'done')
        throw produced.mediaError;
    } else {
      const found = await findMedia(context);
      storeLessonMedia(lessonId, found.media);
      keepPhoto(context, found);
      changed();
    }
    await reportProgress(job, 100);
    return { lessonId };
  } catch (error) {
    await draft?.finish();
    await waitOutRateLimit(job, token, error, describeAiFailure(error), () => {
      markLessonWaiting(lessonId, job.attemptsMade);
      changed();
    });
    const failures = job.attemptsMade + 1;
    recordLessonFailure(lessonId, failures, errorMessage(error));
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

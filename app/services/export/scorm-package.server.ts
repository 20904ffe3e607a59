import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { QuizKind, QuizQuestion } from '../../../db/schema';
import { BUNDLED_FONTS, fontsDir, scriptFamilyOf } from '~/utils/fonts.server';
import { projectPath } from '~/utils/project-files.server';
import { imageUrlsOf, type ExportCourse, type ExportLesson } from './course-export.server';
import { runsText, type Block } from './html-blocks.server';
import { SCORM_LAUNCH_PAGE, scormManifest, xmlId } from './scorm-manifest.server';
import {
  launchPageHtml,
  lessonPageHtml,
  quizPageHtml,
  type PackagePage,
  type PackageQuiz,
  type PageContext,
} from './scorm-pages.server';

/**
 * A course as the files of a SCORM 1.2 package (ADR 34), then zipped. Everything a page needs is
 * inside: the runtime scripts and styles (`public/scorm-runtime`), the images the export could load,
 * and the bundled fonts of the scripts the course is written in, so the package works offline.
 */

export interface ScormQuizInput {
  kind: QuizKind;
  /** The topic a topic quiz follows; null for the exam. */
  topicId: number | null;
  questions: QuizQuestion[];
}

export interface ScormPackageOptions {
  origin: string;
  masteryScore: number;
}

// Under public/, which the Docker image carries: every package holds these files anyway.
const RUNTIME_DIR = projectPath('public', 'scorm-runtime');
const RUNTIME_FILES = ['course.js', 'page.js', 'quiz.js', 'course.css'] as const;
let runtime: Map<string, string> | undefined;

/** The runtime files, read once per process (found from the project folder, as the fonts are). */
function runtimeFiles(): Map<string, string> {
  runtime ??= new Map(
    RUNTIME_FILES.map((file) => [file, fs.readFileSync(path.join(RUNTIME_DIR, file), 'utf8')]),
  );
  return runtime;
}

const pad = (n: number, width = 3) => String(n).padStart(width, '0');

/** Every page in reading order, and what each is made from. */
function planPages(course: ExportCourse, quizzes: ScormQuizInput[]) {
  const pages: PackagePage[] = [];
  const lessons: [PackagePage, ExportLesson][] = [];
  const quizPages: PackageQuiz[] = [];
  let lessonNumber = 0;
  course.topics.forEach((topic, t) => {
    for (const lesson of topic.lessons) {
      lessonNumber += 1;
      const page: PackagePage = {
        id: `lesson-${lessonNumber}`,
        kind: 'lesson',
        href: `lessons/lesson-${pad(lessonNumber)}.html`,
        title: lesson.title,
        topic: t,
        topicTitle: topic.title,
      };
      pages.push(page);
      lessons.push([page, lesson]);
    }
    const quiz = quizzes.find((q) => q.kind === 'topic' && q.topicId === topic.id);
    if (quiz?.questions.length) {
      const page: PackagePage = {
        id: `quiz-${t + 1}`,
        kind: 'quiz',
        href: `quizzes/quiz-${pad(t + 1, 2)}.html`,
        title: topic.title,
        topic: t,
        topicTitle: topic.title,
      };
      pages.push(page);
      quizPages.push({ page, questions: quiz.questions });
    }
  });
  const exam = quizzes.find((q) => q.kind === 'exam');
  if (exam?.questions.length) {
    const page: PackagePage = {
      id: 'exam',
      kind: 'exam',
      href: 'quizzes/exam.html',
      title: 'Final exam',
      topic: null,
      topicTitle: null,
    };
    pages.push(page);
    quizPages.push({ page, questions: exam.questions });
  }
  return { pages, lessons, quizPages };
}

function blockText(block: Block): string {
  switch (block.kind) {
    case 'heading':
    case 'paragraph':
      return runsText(block.runs);
    case 'list':
      return block.items.map(runsText).join(' ');
    case 'code':
      return block.text;
    case 'image':
      return block.alt;
  }
}

/** The bundled fonts of every script with a family of its own that the course's text uses. */
function fontsFor(course: ExportCourse, quizzes: ScormQuizInput[]) {
  const text = [
    course.title,
    ...course.topics.flatMap((topic) => [
      topic.title,
      ...topic.lessons.flatMap((lesson) => [lesson.title, ...(lesson.blocks ?? []).map(blockText)]),
    ]),
    ...quizzes.flatMap((quiz) =>
      quiz.questions.flatMap((q) => [q.question, q.explanation, ...q.options]),
    ),
  ].join('');
  const families = new Set<string>();
  for (const char of new Set(text)) {
    const family = scriptFamilyOf(char);
    if (family) families.add(family);
  }
  return BUNDLED_FONTS.filter((font) => families.has(font.family));
}

/** The fonts' faces, and the course text set in them before the system's own fonts. */
function fontCss(fonts: typeof BUNDLED_FONTS): string {
  if (fonts.length === 0) return '';
  const faces = fonts.map(
    (font) =>
      `@font-face {\n  font-family: '${font.family}';\n  src: url('../fonts/${font.file}') format('truetype');\n  font-weight: ${font.weight};\n  font-display: swap;\n}`,
  );
  const families = [...new Set(fonts.map((font) => `'${font.family}'`))].join(', ');
  return `\n/* The course's scripts, from the fonts in this package (SIL Open Font License). */\n${faces.join('\n')}\nhtml {\n  font-family: ${families}, system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif;\n}\n`;
}

function imageExtension(bytes: Buffer): 'png' | 'jpg' {
  return bytes[0] === 0x89 ? 'png' : 'jpg';
}

/**
 * Every file of the package, path to bytes, the manifest first. `images` is what `loadImages`
 * answered for the course's image URLs (`imageUrlsOf`): a null (or missing) one stays a link.
 */
export function scormPackageFiles(
  course: ExportCourse,
  quizzes: ScormQuizInput[],
  images: Map<string, Buffer | null>,
  options: ScormPackageOptions,
): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  const encoder = new TextEncoder();
  const text = (value: string) => encoder.encode(value);

  // Numbered in reading order, whatever order they were fetched in.
  const imagePaths = new Map<string, string>();
  for (const url of imageUrlsOf(course)) {
    const bytes = images.get(url);
    if (!bytes) continue;
    const file = `images/image-${pad(imagePaths.size + 1)}.${imageExtension(bytes)}`;
    imagePaths.set(url, file);
    files.set(file, bytes);
  }

  const { pages, lessons, quizPages } = planPages(course, quizzes);
  const context: PageContext = {
    course,
    pages,
    imagePath: (url) => imagePaths.get(url) ?? null,
    origin: options.origin,
    masteryScore: options.masteryScore,
  };
  const pageFiles = new Map<string, Uint8Array>([
    [SCORM_LAUNCH_PAGE, text(launchPageHtml(context))],
  ]);
  for (const [page, lesson] of lessons)
    pageFiles.set(page.href, text(lessonPageHtml(context, page, lesson)));
  for (const quiz of quizPages) pageFiles.set(quiz.page.href, text(quizPageHtml(context, quiz)));

  const fonts = fontsFor(course, quizzes);
  const assets = runtimeFiles();
  const assetFiles = new Map<string, Uint8Array>([
    ['coursegen/course.js', text(assets.get('course.js')!)],
    ['coursegen/page.js', text(assets.get('page.js')!)],
    ['coursegen/quiz.js', text(assets.get('quiz.js')!)],
    ['coursegen/course.css', text(assets.get('course.css')! + fontCss(fonts))],
  ]);
  for (const font of fonts)
    assetFiles.set(`fonts/${font.file}`, fs.readFileSync(path.join(fontsDir(), font.file)));
  for (const family of new Set(fonts.map((font) => font.family.replace(/ /g, '')))) {
    const licence = `OFL-${family}.txt`;
    assetFiles.set(`fonts/${licence}`, fs.readFileSync(path.join(fontsDir(), licence)));
  }

  const contents = [...pageFiles, ...assetFiles, ...files];
  const lessonCount = lessons.length;
  const topicQuizzes = quizPages.filter((quiz) => quiz.page.kind === 'quiz').length;
  const hasExam = quizPages.some((quiz) => quiz.page.kind === 'exam');
  const manifest = scormManifest({
    // Stable for the course, without giving its id away to whoever gets the zip.
    identifier: xmlId(
      'coursegen',
      createHash('sha256').update(course.id).digest('base64url').slice(0, 22),
    ),
    title: course.title,
    language: course.language.code,
    description:
      `A course of ${course.topics.length} topics and ${lessonCount} lessons` +
      (topicQuizzes ? `, ${topicQuizzes} topic quizzes` : '') +
      (hasExam ? ' and a final exam' : '') +
      `, written with ${course.siteName}.`,
    masteryScore: options.masteryScore,
    files: contents.map(([file]) => file),
  });
  return new Map([['imsmanifest.xml', text(manifest)], ...contents]);
}

/** Already-compressed files (images, fonts) are stored; text is deflated. */
const STORED = /\.(png|jpe?g|ttf)$/i;

/**
 * The package as one zip, the manifest at its root as SCORM requires. Every entry's checksum and
 * sizes are in its local header (no data descriptors, which some LMSs' zip readers refuse for
 * stored entries); text is deflated on libuv's thread pool, and the event loop is let go between
 * files, so a course's tens of megabytes of photos never hold this web process for long.
 */
export async function zipScormPackage(files: Map<string, Uint8Array>): Promise<Buffer> {
  // Loaded with the first package: a process that makes none never holds it.
  const { default: yazl } = await import('yazl');
  const zip = new yazl.ZipFile();
  const chunks: Buffer[] = [];
  const written = new Promise<Buffer>((resolve, reject) => {
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
  for (const [file, bytes] of files) {
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    zip.addBuffer(buffer, file, { compress: !STORED.test(file) });
    await new Promise((resolve) => setImmediate(resolve));
  }
  zip.end();
  return written;
}

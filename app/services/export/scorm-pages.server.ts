import type { QuizQuestion } from '../../../db/schema';
import { absoluteUrl, type ExportCourse, type ExportLesson } from './course-export.server';
import type { Block, Run } from './html-blocks.server';
import { escapeMarkup as esc, jsonForScript } from './scorm-markup.server';

/**
 * The HTML pages of a course's SCORM package (ADR 34): the launch page (`index.html`, the one
 * SCO: outline, progress and a frame for the pages), one static page per lesson and one
 * interactive page per quiz. Lessons are drawn from the export's blocks, like the Markdown and
 * the PDF, so no stored HTML is copied as it is; their one script, `coursegen/page.js`, tells the
 * launch page which page is shown. Pages load nothing from outside the package:
 * outside addresses appear only as links, which open in a new window.
 */

type PageKind = 'lesson' | 'quiz' | 'exam';

export interface PackagePage {
  /** What `cmi.core.lesson_location` holds: `lesson-3`, `quiz-2` (after topic 2), `exam`. */
  id: string;
  kind: PageKind;
  /** Path inside the package, one folder deep (`lessons/…`, `quizzes/…`). */
  href: string;
  title: string;
  /** The topic it belongs to (its index in the course), null for the exam. */
  topic: number | null;
  topicTitle: string | null;
}

export interface PackageQuiz {
  page: PackagePage;
  questions: QuizQuestion[];
}

export interface PageContext {
  course: ExportCourse;
  /** Every page in reading order: each topic's lessons, its quiz, then the exam. */
  pages: PackagePage[];
  /** The package path of an image that was copied into it, or null (it stays a link). */
  imagePath: (url: string) => string | null;
  /** Makes the app's own site-relative links absolute. */
  origin: string;
  /** The exam's pass mark in percent, shown on the exam page. */
  masteryScore: number;
}

/** The document around every page; `up` is '../' for pages one folder deep. */
function documentHtml(
  context: PageContext,
  options: { title: string; up: string; bodyAttributes: string; body: string },
): string {
  const { code, dir } = context.course.language;
  return `<!DOCTYPE html>
<html lang="${esc(code)}" dir="${dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(options.title)}</title>
<link rel="stylesheet" href="${options.up}coursegen/course.css">
</head>
<body ${options.bodyAttributes}>
${options.body}
</body>
</html>
`;
}

/** An outside link: opened in a new window, so the course frame stays where it is. */
function outsideLink(href: string, content: string, attributes = ''): string {
  return `<a href="${esc(href)}" target="_blank" rel="noopener noreferrer"${attributes}>${content}</a>`;
}

function safeHref(href: string, origin: string): string | null {
  const absolute = absoluteUrl(href, origin);
  return /^(https?:|mailto:)/i.test(absolute) ? absolute : null;
}

function runsHtml(runs: Run[], origin: string): string {
  return runs
    .map((run) => {
      if (run.text === '\n') return '<br>';
      let html = esc(run.text);
      if (run.code) html = `<code>${html}</code>`;
      if (run.italic) html = `<em>${html}</em>`;
      if (run.bold) html = `<strong>${html}</strong>`;
      const href = run.href ? safeHref(run.href, origin) : null;
      return href ? outsideLink(href, html) : html;
    })
    .join('');
}

/** An image copied into the package, or a link to where it lives when it could not be. */
function imageHtml(context: PageContext, url: string, alt: string, caption: string): string {
  const local = context.imagePath(url);
  if (local)
    return `<figure><img src="../${esc(local)}" alt="${esc(alt)}">${
      caption ? `<figcaption>${caption}</figcaption>` : ''
    }</figure>`;
  const href = safeHref(url, context.origin);
  const label = esc(alt || url);
  return `<p class="image-link"><span lang="en" dir="ltr">Image:</span> ${
    href ? outsideLink(href, label) : label
  }${caption ? ` · ${caption}` : ''}</p>`;
}

function blockHtml(context: PageContext, block: Block): string {
  switch (block.kind) {
    case 'heading': {
      // The lesson's title is the page's h1; its own headings sit below it.
      const level = Math.min(6, Math.max(2, block.level + 1));
      return `<h${level}>${runsHtml(block.runs, context.origin)}</h${level}>`;
    }
    case 'paragraph':
      return `<p>${runsHtml(block.runs, context.origin)}</p>`;
    case 'list': {
      const tag = block.ordered ? 'ol' : 'ul';
      const items = block.items.map((item) => `<li>${runsHtml(item, context.origin)}</li>`);
      return `<${tag}>${items.join('')}</${tag}>`;
    }
    case 'code':
      // Code reads left to right in every course language.
      return `<pre dir="ltr"><code>${esc(block.text)}</code></pre>`;
    case 'image':
      return imageHtml(context, block.src, block.alt, '');
  }
}

/** A page's name in the outline and the pager: a lesson's title, the quizzes' English names. */
function pageLabel(page: PackagePage): string {
  if (page.kind === 'lesson') return `<bdi>${esc(page.title)}</bdi>`;
  return `<span lang="en" dir="ltr">${page.kind === 'exam' ? 'Final exam' : 'Topic quiz'}</span>`;
}

/** Previous and next page, as plain links inside the frame. */
function pagerHtml(context: PageContext, page: PackagePage): string {
  const index = context.pages.findIndex((candidate) => candidate.id === page.id);
  const previous = context.pages[index - 1];
  const next = context.pages[index + 1];
  const link = (target: PackagePage, rel: 'prev' | 'next') =>
    `<a rel="${rel}" href="../${esc(target.href)}" data-page-link="${esc(target.id)}"><span lang="en" dir="ltr">${
      rel === 'prev' ? 'Previous:' : 'Next:'
    }</span> ${pageLabel(target)}</a>`;
  return `<nav class="pager" aria-label="Pages">${previous ? link(previous, 'prev') : '<span></span>'}${
    next ? link(next, 'next') : ''
  }</nav>`;
}

function topicLine(page: PackagePage): string {
  return page.topicTitle ? `<p class="topic-name">${esc(page.topicTitle)}</p>` : '';
}

export function lessonPageHtml(
  context: PageContext,
  page: PackagePage,
  lesson: ExportLesson,
): string {
  const parts: string[] = [topicLine(page), `<h1>${esc(lesson.title)}</h1>`];
  if (lesson.image) {
    const credit = lesson.image.credit;
    const creditUrl = credit ? safeHref(credit.url, context.origin) : null;
    const caption = credit
      ? `<span lang="en" dir="ltr">Photo:</span> ${
          creditUrl ? outsideLink(creditUrl, esc(credit.name)) : esc(credit.name)
        }`
      : '';
    parts.push(imageHtml(context, lesson.image.url, lesson.title, caption));
  }
  if (lesson.blocks) parts.push(...lesson.blocks.map((block) => blockHtml(context, block)));
  else parts.push('<p lang="en" dir="ltr"><em>Not written yet.</em></p>');
  if (lesson.youtubeId) {
    // A video cannot play without the network; the link says where it is.
    const href = `https://www.youtube.com/watch?v=${encodeURIComponent(lesson.youtubeId)}`;
    parts.push(
      `<p class="video-link">${outsideLink(href, "Watch this lesson's video on YouTube", ' lang="en" dir="ltr"')}</p>`,
    );
  }
  return documentHtml(context, {
    title: lesson.title,
    up: '../',
    bodyAttributes: `class="page lesson" data-page="${esc(page.id)}"`,
    body: `<main class="content">\n${parts.join('\n')}\n</main>\n${pagerHtml(context, page)}\n<script src="../coursegen/page.js"></script>`,
  });
}

/**
 * A quiz page. The answer key is in the page (the package is scored in the browser, with no
 * server to ask): `coursegen/quiz.js` marks the answers and tells the launch page the score.
 */
export function quizPageHtml(context: PageContext, quiz: PackageQuiz): string {
  const { page, questions } = quiz;
  const exam = page.kind === 'exam';
  const heading = exam
    ? '<h1 lang="en" dir="ltr">Final exam</h1>'
    : `<h1><span lang="en" dir="ltr">Topic quiz:</span> <bdi>${esc(page.topicTitle ?? page.title)}</bdi></h1>`;
  const fieldsets = questions.map(
    (question, q) => `<fieldset class="question" data-question="${q}">
<legend><span class="number">${q + 1}.</span> ${esc(question.question)}</legend>
${question.options
  .map(
    (option, o) =>
      `<label class="option"><input type="radio" name="q${q}" value="${o}"> <span>${esc(option)}</span></label>`,
  )
  .join('\n')}
<p class="explanation" hidden></p>
</fieldset>`,
  );
  const key = {
    page: page.id,
    kind: exam ? 'exam' : 'topic',
    answers: questions.map((question) => question.answer),
    explanations: questions.map((question) => question.explanation),
  };
  const intro = exam
    ? `<p class="quiz-intro" lang="en" dir="ltr">${questions.length} questions. ${context.masteryScore}% or more passes the course.</p>
<p class="quiz-locked" id="quiz-locked" hidden lang="en" dir="ltr">The final exam opens once every lesson is done.</p>`
    : `<p class="quiz-intro" lang="en" dir="ltr">${questions.length} questions about this topic.</p>`;
  const body = `<main class="content">
${exam ? '' : topicLine(page)}
${heading}
${intro}
<form id="quiz-form" class="quiz-form">
${fieldsets.join('\n')}
<p class="quiz-message" id="quiz-message" role="status" lang="en" dir="ltr"></p>
<div class="quiz-actions" lang="en" dir="ltr">
<button type="submit" id="quiz-submit">Submit answers</button>
<button type="button" id="quiz-retake" hidden>Take it again</button>
</div>
</form>
<noscript><p lang="en" dir="ltr">Marking this quiz needs JavaScript.</p></noscript>
</main>
${pagerHtml(context, page)}
<script type="application/json" id="quiz-key">${jsonForScript(key)}</script>
<script src="../coursegen/page.js"></script>
<script src="../coursegen/quiz.js"></script>`;
  return documentHtml(context, {
    title: exam ? 'Final exam' : `Topic quiz: ${page.topicTitle ?? page.title}`,
    up: '../',
    bodyAttributes: `class="page quiz" data-page="${esc(page.id)}"`,
    body,
  });
}

/**
 * The launch page, the package's one SCO: the course outline, the learner's progress, a frame
 * showing one page at a time, and `coursegen/course.js`, which talks to the LMS.
 */
export function launchPageHtml(context: PageContext): string {
  const { course, pages } = context;
  const link = (page: PackagePage) =>
    `<a href="${esc(page.href)}" target="content" data-page="${esc(page.id)}" data-kind="${page.kind}">${pageLabel(page)}</a>`;
  const topics = course.topics.map((topic, t) => {
    const items = pages.filter((page) => page.topic === t);
    return `<li class="topic"><h2>${esc(topic.title)}</h2><ol class="pages">${items
      .map((page) => `<li>${link(page)}</li>`)
      .join('')}</ol></li>`;
  });
  const exam = pages.find((page) => page.kind === 'exam');
  const data = {
    masteryScore: context.masteryScore,
    pages: pages.map(({ id, kind, href }) => ({ id, kind, href })),
  };
  const body = `<header class="shell-bar">
<h1 class="shell-title">${esc(course.title)}</h1>
<div class="shell-status" lang="en" dir="ltr">
<p id="progress" aria-live="polite"></p>
<p id="connection"></p>
<button type="button" id="exit" hidden>Save and exit</button>
</div>
</header>
<div class="shell-body">
<nav class="shell-nav" aria-label="Course outline">
<ol class="topics">${topics.join('')}</ol>
${exam ? `<p class="exam-link">${link(exam)} <span class="exam-note" id="exam-note" lang="en" dir="ltr"></span></p>` : ''}
</nav>
<main class="shell-main">
<iframe name="content" id="content" title="Course page" src="${esc(pages[0]?.href ?? '')}"></iframe>
</main>
</div>
<script type="application/json" id="course-data">${jsonForScript(data)}</script>
<script src="coursegen/course.js"></script>`;
  return documentHtml(context, {
    title: course.title,
    up: '',
    bodyAttributes: 'class="shell"',
    body,
  });
}

import { htmlToBlocks, type Block, type Run } from './html-blocks.server';
import { absoluteUrl, type ExportCourse } from './course-export.server';

/**
 * The whole course as one Markdown file: title, language, outline, then every topic and its
 * lessons. Images stay links (absolute, so the file reads the same anywhere); a lesson not
 * written yet says so instead of being left out, so the outline and the body always agree.
 */
export const NOT_WRITTEN = '_Not written yet._';

/** Backslash-escapes what Markdown would read as markup in plain text. */
function escapeText(text: string): string {
  return text.replace(/([\\`*_[\]<>#|])/g, '\\$1');
}

function inlineCode(text: string): string {
  const fence = '`'.repeat(
    (text.match(/`+/g) ?? []).reduce((n, m) => Math.max(n, m.length), 0) + 1,
  );
  return fence.length > 1 || text.startsWith(' ') ? `${fence} ${text} ${fence}` : `\`${text}\``;
}

function runsMarkdown(runs: Run[]): string {
  return runs
    .map((run) => {
      if (run.text === '\n') return '  \n';
      let text = run.code ? inlineCode(run.text) : escapeText(run.text);
      if (run.bold) text = `**${text}**`;
      if (run.italic) text = `*${text}*`;
      if (run.href) text = `[${text}](<${run.href}>)`;
      return text;
    })
    .join('');
}

function blockMarkdown(block: Block, origin: string, headingShift = 2): string {
  switch (block.kind) {
    case 'heading':
      // In the export, lesson headings sit below the course (#), topic (##) and lesson (###) levels.
      return `${'#'.repeat(Math.min(6, block.level + headingShift))} ${runsMarkdown(block.runs)}`;
    case 'paragraph':
      return runsMarkdown(block.runs);
    case 'list':
      return block.items
        .map((item, i) => `${block.ordered ? `${i + 1}.` : '-'} ${runsMarkdown(item)}`)
        .join('\n');
    case 'code': {
      const fence = block.text.includes('```') ? '~~~~' : '```';
      return `${fence}\n${block.text}\n${fence}`;
    }
    case 'image':
      return `![${escapeText(block.alt)}](<${absoluteUrl(block.src, origin)}>)`;
  }
}

/**
 * A lesson's stored HTML as Markdown to edit (ADR 0059), headings at their own levels and image
 * links as stored. What the export's blocks do not draw (a table) comes back as its text.
 */
export function lessonHtmlAsMarkdown(html: string): string {
  return htmlToBlocks(html)
    .map((block) => blockMarkdown(block, '', 0))
    .join('\n\n')
    .trim();
}

/** `origin` makes site-relative image links absolute (the request's origin or APP_URL). */
export function courseMarkdown(course: ExportCourse, origin: string): string {
  const out: string[] = [`# ${escapeText(course.title)}`, ''];
  out.push(`Language: ${course.language.name} (${course.language.nativeName})`, '');
  out.push('## Outline', '');
  course.topics.forEach((topic, t) => {
    out.push(`${t + 1}. ${escapeText(topic.title)}`);
    for (const lesson of topic.lessons) out.push(`   - ${escapeText(lesson.title)}`);
  });
  out.push('');
  course.topics.forEach((topic, t) => {
    out.push(`## ${t + 1}. ${escapeText(topic.title)}`, '');
    for (const lesson of topic.lessons) {
      out.push(`### ${escapeText(lesson.title)}`, '');
      if (!lesson.blocks) {
        out.push(NOT_WRITTEN, '');
        continue;
      }
      if (lesson.image) {
        const credit = lesson.image.credit
          ? ` (photo: ${escapeText(lesson.image.credit.name)})`
          : '';
        out.push(
          `![${escapeText(lesson.title)}](<${absoluteUrl(lesson.image.url, origin)}>)${credit}`,
          '',
        );
      }
      for (const block of lesson.blocks) out.push(blockMarkdown(block, origin), '');
      if (lesson.youtubeId)
        out.push(`Video: <https://www.youtube.com/watch?v=${lesson.youtubeId}>`, '');
      if (lesson.note)
        out.push('> **My notes**', '>', ...lesson.note.split('\n').map((l) => `> ${l}`), '');
    }
  });
  out.push('---', '', `_Exported from ${escapeText(course.siteName)}._`);
  return `${out
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trimEnd()}\n`;
}

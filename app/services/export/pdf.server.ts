import { absoluteUrl, type ExportCourse } from './course-export.server';
import { familiesOf, fontName, fontRuns, LATIN_FAMILY, registerFonts } from './fonts.server';
import type { Block, Run } from './html-blocks.server';
import { NOT_WRITTEN } from './markdown.server';

/**
 * The course as a PDF drawn by PDFKit on the server (no browser): a title page, the outline,
 * then each topic from a new page with its lessons, their photos and images. Fonts come from
 * the repository (./fonts.server.ts), one per script run; what PDFKit shapes and what it does
 * not is in ADR 0022. Images the caller could not load are printed as caption links.
 */
/** PDFKit reads an image's size before drawing it; its types leave this method out. */
type ImageOpener = { openImage(src: Buffer): { width: number; height: number } };

const MARGIN = 56;
const TEXT = '#1f2937';
const MUTED = '#6b7280';
const LINK = '#4338ca';
const IMAGE_MAX_HEIGHT = 260;

interface Style {
  size: number;
  bold?: boolean;
  color?: string;
  indent?: number;
  gap?: number;
}

function allText(course: ExportCourse): string {
  const parts = [course.title, course.language.nativeName];
  for (const topic of course.topics) {
    parts.push(topic.title);
    for (const lesson of topic.lessons) {
      parts.push(lesson.title, lesson.note ?? '');
      for (const block of lesson.blocks ?? []) {
        if (block.kind === 'code') parts.push(block.text);
        else if (block.kind === 'image') parts.push(block.alt);
        else if (block.kind === 'list') parts.push(...block.items.flat().map((r) => r.text));
        else parts.push(...block.runs.map((r) => r.text));
      }
    }
  }
  return parts.join(' ');
}

export async function coursePdf(
  course: ExportCourse,
  images: Map<string, Buffer | null>,
  origin: string,
): Promise<Buffer> {
  // Loaded with the first PDF: a process that draws none (PDFs are drawn on a thread) never
  // holds PDFKit.
  const { default: PDFDocument } = await import('pdfkit');
  const rtl = course.language.dir === 'rtl';
  const align = rtl ? 'right' : 'left';
  const doc = new PDFDocument({
    size: 'A4',
    margin: MARGIN,
    lang: course.language.code,
    displayTitle: true,
    info: { Title: course.title, Creator: course.siteName },
  });
  registerFonts(doc, familiesOf(allText(course)));
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const width = doc.page.width - 2 * MARGIN;

  /** Draws runs as one paragraph, each script run in its own font (PDFKit cannot fall back). */
  function write(runs: Run[], style: Style) {
    const pieces = runs.flatMap((run) =>
      fontRuns(run.text, Boolean(style.bold || run.bold)).map((piece) => ({ ...piece, run })),
    );
    if (pieces.length === 0) return;
    doc.x = MARGIN + (style.indent ?? 0);
    pieces.forEach((piece, i) => {
      doc
        .font(piece.font)
        .fontSize(piece.run.code ? style.size * 0.92 : style.size)
        .fillColor(piece.run.href ? LINK : piece.run.code ? '#7c2d12' : (style.color ?? TEXT))
        .text(piece.text, {
          width: width - (style.indent ?? 0),
          align,
          continued: i < pieces.length - 1,
          link: piece.run.href ?? null,
          underline: Boolean(piece.run.href),
          oblique: piece.run.italic ? 12 : false,
          lineGap: 2,
        });
    });
    doc.moveDown(style.gap ?? 0.6);
  }
  const plain = (text: string, style: Style) => write([{ text }], style);

  function image(url: string, caption: string) {
    const bytes = images.get(url);
    if (bytes) {
      try {
        const img = (doc as unknown as ImageOpener).openImage(bytes);
        const scale = Math.min(1, width / img.width, IMAGE_MAX_HEIGHT / img.height);
        const height = img.height * scale;
        if (doc.y + height > doc.page.height - MARGIN) doc.addPage();
        doc.image(img as unknown as Buffer, MARGIN, doc.y, { width: img.width * scale, height });
        doc.y += height + 4;
        if (caption) plain(caption, { size: 8, color: MUTED });
        else doc.moveDown(0.6);
        return;
      } catch {
        // Bytes PDFKit cannot read: fall through to the link.
      }
    }
    const href = absoluteUrl(url, origin);
    write([{ text: caption ? `${caption}: ` : 'Image: ' }, { text: href, href }], {
      size: 8,
      color: MUTED,
    });
  }

  function block(item: Block) {
    switch (item.kind) {
      case 'heading':
        return write(item.runs, { size: Math.max(11, 17 - item.level), bold: true, gap: 0.4 });
      case 'paragraph':
        return write(item.runs, { size: 10.5 });
      case 'list':
        item.items.forEach((runs, i) =>
          write([{ text: item.ordered ? `${i + 1}. ` : '• ' }, ...runs], {
            size: 10.5,
            indent: 14,
            gap: 0.2,
          }),
        );
        doc.moveDown(0.4);
        return;
      case 'code':
        return plain(item.text, { size: 9, color: '#374151', indent: 14 });
      case 'image':
        return image(item.src, item.alt);
    }
  }

  // Title page.
  doc.y = doc.page.height / 3;
  plain(course.title, { size: 28, bold: true });
  plain(`${course.language.name} · ${course.language.nativeName}`, { size: 12, color: MUTED });
  const lessonCount = course.topics.reduce((n, topic) => n + topic.lessons.length, 0);
  plain(`${course.topics.length} topics · ${lessonCount} lessons`, { size: 12, color: MUTED });
  plain(course.siteName, { size: 12, color: MUTED });

  // Outline.
  doc.addPage();
  plain('Outline', { size: 20, bold: true });
  course.topics.forEach((topic, t) => {
    plain(`${t + 1}. ${topic.title}`, { size: 12, bold: true, gap: 0.2 });
    for (const lesson of topic.lessons) plain(lesson.title, { size: 10.5, indent: 16, gap: 0.1 });
    doc.moveDown(0.4);
  });

  // Lessons: each topic from a new page, bookmarked in the PDF's own outline.
  course.topics.forEach((topic, t) => {
    doc.addPage();
    const mark = doc.outline.addItem(`${t + 1}. ${topic.title}`);
    plain(`${t + 1}. ${topic.title}`, { size: 20, bold: true });
    for (const lesson of topic.lessons) {
      if (doc.y > doc.page.height - MARGIN - 80) doc.addPage();
      mark.addItem(lesson.title);
      plain(lesson.title, { size: 15, bold: true, gap: 0.4 });
      if (!lesson.blocks) {
        write([{ text: NOT_WRITTEN.replace(/_/g, ''), italic: true }], {
          size: 10.5,
          color: MUTED,
        });
        continue;
      }
      if (lesson.image) {
        const credit = lesson.image.credit ? `Photo: ${lesson.image.credit.name}` : '';
        image(lesson.image.url, credit);
      }
      lesson.blocks.forEach(block);
      if (lesson.youtubeId) {
        const href = `https://www.youtube.com/watch?v=${lesson.youtubeId}`;
        write([{ text: 'Video: ' }, { text: href, href }], { size: 9, color: MUTED });
      }
      if (lesson.note) {
        plain('My notes', { size: 10.5, bold: true, gap: 0.2 });
        plain(lesson.note, { size: 10, color: '#374151', indent: 10 });
      }
      doc.moveDown(0.6);
    }
  });

  doc.font(fontName(LATIN_FAMILY, false));
  doc.end();
  return done;
}

import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { languageOf } from '~/domain/languages';
import { manifestErrors, unzip } from '../../../tests/support/scorm';
import type { ExportCourse } from './course-export.server';
import { htmlToBlocks } from './html-blocks.server';
import { scormPackageFiles, zipScormPackage, type ScormQuizInput } from './scorm-package.server';

const PNG = fs.readFileSync('public/images/demo/photo-2.png');
const ORIGIN = 'https://coursegen.example';

function course(language = 'en', title = 'Graphs & "Trees" <Basics>'): ExportCourse {
  return {
    id: 'c0urse-ID_1',
    title,
    siteName: 'CourseGen',
    language: languageOf(language),
    topics: [1, 2].map((t) => ({
      id: 10 + t,
      title: language === 'ar' ? `الموضوع ${t}` : `Topic ${t}`,
      lessons: [1, 2].map((l) => ({
        id: t * 10 + l,
        title: language === 'ar' ? `الدرس ${t}.${l}` : `Lesson ${t}.${l}`,
        blocks: htmlToBlocks(
          `<h2>Part</h2><p>Some <strong>bold</strong> and a <a href="/share/x">link</a>.</p>` +
            `<p><img src="https://images.example/ok.png" alt="Loaded"></p>` +
            `<p><img src="https://images.example/gone.png" alt="Not loaded"></p>` +
            `<pre><code>if (a &lt; b) {}</code></pre>`,
        ),
        image: {
          url: '/images/demo/photo-2.png',
          credit: { name: 'Ada Lens', url: 'https://u.example/ada' },
        },
        youtubeId: t === 2 && l === 2 ? 'abc123' : null,
        note: null,
      })),
    })),
  };
}

const question = (n: number) => ({
  question: `Question ${n}?`,
  options: ['Right', 'Wrong </script> <b>'],
  answer: 0,
  explanation: `Because ${n} </script>.`,
});

const quizzes: ScormQuizInput[] = [
  { kind: 'topic', topicId: 11, questions: [question(1), question(2), question(3)] },
  { kind: 'topic', topicId: 12, questions: [question(4), question(5), question(6)] },
  { kind: 'exam', topicId: null, questions: Array.from({ length: 10 }, (_, i) => question(i + 7)) },
];

const images = new Map<string, Buffer | null>([
  ['/images/demo/photo-2.png', PNG],
  ['https://images.example/ok.png', PNG],
  ['https://images.example/gone.png', null],
]);

const text = (files: Map<string, Uint8Array>, file: string) =>
  new TextDecoder().decode(files.get(file));

describe('scormPackageFiles', () => {
  const files = scormPackageFiles(course(), quizzes, images, { origin: ORIGIN, masteryScore: 80 });
  const manifest = text(files, 'imsmanifest.xml');

  it('has a manifest valid against the SCORM 1.2 schemas, listing every other file', async () => {
    expect(await manifestErrors(manifest)).toEqual([]);
    const listed = [...manifest.matchAll(/<file href="([^"]+)"\/>/g)].map((m) => m[1]);
    expect(listed.sort()).toEqual([...files.keys()].filter((f) => f !== 'imsmanifest.xml').sort());
    expect(manifest).toContain('adlcp:scormtype="sco" href="index.html"');
    expect(manifest).toContain('<adlcp:masteryscore>80</adlcp:masteryscore>');
    expect(manifest).toContain('<title>Graphs &amp; &quot;Trees&quot; &lt;Basics&gt;</title>');
    // Stable, but not the course's id.
    expect(manifest).toMatch(/<manifest identifier="coursegen-[\w-]{22}"/);
    expect(manifest).not.toContain('c0urse-ID_1');
    expect(
      scormPackageFiles(course(), quizzes, images, { origin: ORIGIN, masteryScore: 80 }).get(
        'imsmanifest.xml',
      ),
    ).toEqual(files.get('imsmanifest.xml'));
  });

  it('fails validation when the manifest breaks the schemas (the check can fail)', async () => {
    const broken = manifest.replace(' type="webcontent"', '');
    expect((await manifestErrors(broken)).join('\n')).toMatch(/'type' is required/);
    const unknownMetadata = manifest
      .replace('<imsmd:language>', '<imsmd:tongue>')
      .replace('</imsmd:language>', '</imsmd:tongue>');
    expect(await manifestErrors(unknownMetadata)).not.toEqual([]);
    // adlcp:masteryscore belongs after the item's title, not before it.
    const misplaced = manifest
      .replace('        <adlcp:masteryscore>80</adlcp:masteryscore>\n', '')
      .replace(
        '<item identifier="ITEM-course" identifierref="RES-course" isvisible="true">',
        '$&<adlcp:masteryscore>80</adlcp:masteryscore>',
      );
    expect(misplaced).not.toEqual(manifest);
    expect(await manifestErrors(misplaced)).not.toEqual([]);
  });

  it('writes a lesson page per lesson, a page per quiz, the exam and the runtime', () => {
    expect([...files.keys()].filter((f) => f.startsWith('lessons/'))).toEqual([
      'lessons/lesson-001.html',
      'lessons/lesson-002.html',
      'lessons/lesson-003.html',
      'lessons/lesson-004.html',
    ]);
    expect([...files.keys()].filter((f) => f.startsWith('quizzes/'))).toEqual([
      'quizzes/quiz-01.html',
      'quizzes/quiz-02.html',
      'quizzes/exam.html',
    ]);
    for (const file of [
      'index.html',
      'coursegen/course.js',
      'coursegen/quiz.js',
      'coursegen/course.css',
    ])
      expect(files.has(file)).toBe(true);
    const index = text(files, 'index.html');
    // Reading order: topic 1's lessons and quiz, topic 2's, then the exam.
    const order = [...index.matchAll(/data-page="([^"]+)"/g)].map((m) => m[1]);
    expect(order).toEqual([
      'lesson-1',
      'lesson-2',
      'quiz-1',
      'lesson-3',
      'lesson-4',
      'quiz-2',
      'exam',
    ]);
    expect(index).toContain('<script src="coursegen/course.js"></script>');
  });

  it('copies loaded images into the package and links the others', () => {
    const lesson = text(files, 'lessons/lesson-001.html');
    expect(files.get('images/image-001.png')).toEqual(PNG);
    expect(files.get('images/image-002.png')).toEqual(PNG);
    expect(files.has('images/image-003.png')).toBe(false);
    expect(lesson).toContain('<img src="../images/image-001.png" alt="Lesson 1.1">');
    expect(lesson).toContain('<img src="../images/image-002.png" alt="Loaded">');
    expect(lesson).toContain(
      '<a href="https://images.example/gone.png" target="_blank" rel="noopener noreferrer">Not loaded</a>',
    );
    // Site-relative links become absolute; the photo credit stays a link.
    expect(lesson).toContain(`href="${ORIGIN}/share/x"`);
    expect(lesson).toContain('href="https://u.example/ada"');
    expect(lesson).toContain('<pre dir="ltr"><code>if (a &lt; b) {}</code></pre>');
    expect(text(files, 'lessons/lesson-004.html')).toContain(
      'https://www.youtube.com/watch?v=abc123',
    );
  });

  it('loads nothing from outside the package: every src and stylesheet is relative', () => {
    for (const [file, bytes] of files) {
      if (!file.endsWith('.html')) continue;
      const html = new TextDecoder().decode(bytes);
      for (const [, url] of html.matchAll(/(?:src|<link[^>]*href)="([^"]*)"/g))
        expect(url, `${file}: ${url}`).not.toMatch(/^(https?:)?\/\//);
    }
    expect(text(files, 'coursegen/course.css')).not.toMatch(/url\(['"]?(https?:)?\/\//);
  });

  it('puts the answer key in the quiz page, safely inside its script element', () => {
    const quiz = text(files, 'quizzes/quiz-01.html');
    expect(quiz).toContain('"answers":[0,0,0]');
    expect(quiz).toContain('Because 1 \\u003c/script\\u003e.');
    expect(quiz).toContain('<span>Wrong &lt;/script&gt; &lt;b&gt;</span>');
    // The key's, page.js's and quiz.js's elements, and no other.
    expect(quiz.match(/<\/script>/g)).toHaveLength(3);
  });

  it('zips the files with the manifest first, sizes in every local header', async () => {
    const zip = await zipScormPackage(files);
    // Walk the local headers: none defers its sizes to a data descriptor (flag bit 3), which
    // streaming zip readers refuse for stored entries.
    let offset = 0;
    let entries = 0;
    while (zip.readUInt32LE(offset) === 0x04034b50) {
      expect(zip.readUInt16LE(offset + 6) & 0x8).toBe(0);
      const size = zip.readUInt32LE(offset + 18);
      offset += 30 + zip.readUInt16LE(offset + 26) + zip.readUInt16LE(offset + 28) + size;
      entries += 1;
    }
    expect(entries).toBe(files.size);
    const unzipped = unzip(zip);
    expect([...unzipped.keys()][0]).toBe('imsmanifest.xml');
    expect([...unzipped.keys()].sort()).toEqual([...files.keys()].sort());
    expect(unzipped.get('images/image-001.png')).toEqual(new Uint8Array(PNG));
  });
});

describe('a right-to-left course', () => {
  const files = scormPackageFiles(course('ar', 'مقدمة في الرسوم البيانية'), quizzes, images, {
    origin: ORIGIN,
    masteryScore: 80,
  });

  it('is right to left on every page and carries the fonts of its script', async () => {
    for (const file of ['index.html', 'lessons/lesson-001.html', 'quizzes/exam.html'])
      expect(text(files, file)).toContain('<html lang="ar" dir="rtl">');
    expect(files.has('fonts/NotoSansArabic-Regular.ttf')).toBe(true);
    expect(files.has('fonts/NotoSansArabic-Bold.ttf')).toBe(true);
    expect(files.has('fonts/OFL-NotoSansArabic.txt')).toBe(true);
    expect(text(files, 'coursegen/course.css')).toContain(
      "src: url('../fonts/NotoSansArabic-Regular.ttf')",
    );
    const manifest = text(files, 'imsmanifest.xml');
    expect(manifest).toContain(
      '<imsmd:langstring xml:lang="ar">مقدمة في الرسوم البيانية</imsmd:langstring>',
    );
    expect(await manifestErrors(manifest)).toEqual([]);
  });

  it('adds no fonts to a course in a Latin script', () => {
    const latin = scormPackageFiles(course(), quizzes, images, {
      origin: ORIGIN,
      masteryScore: 80,
    });
    expect([...latin.keys()].some((file) => file.startsWith('fonts/'))).toBe(false);
  });
});

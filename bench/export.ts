import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

/**
 * `npm run bench -- export`: a 10-topic course (6 lessons each, ~600 words, a photo and an
 * inline image per lesson, written quizzes) seeded in a temporary database, exported as Markdown,
 * as PDF and as a SCORM 1.2 package (ADR 34) in English, Hindi and Chinese, the images served by
 * a local HTTP server with 20 ms latency.
 * Interleaved with a baseline (reading the course into blocks, no writing), 5 rounds; prints
 * medians against the target (each export under 5 s).
 */
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const TARGET_MS = 5000;
const TOPICS = 10;
const LESSONS = 6;

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'coursegen-bench-export-'));
Object.assign(process.env, {
  NODE_ENV: 'development',
  DATA_DIR: dataDir,
  DEMO_MODE: 'true',
  LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
  EXPORT_IMAGE_HOSTS: '127.0.0.1',
});

const WORDS: Record<string, string> = {
  en: 'graph vertex edge weight path search order tree',
  hi: 'ग्राफ़ शीर्ष किनारा भार पथ खोज क्रम वृक्ष',
  zh: '图 顶点 边 权重 路径 搜索 顺序 树',
};

function lessonHtml(language: string, image: string): string {
  const words = WORDS[language]!.split(' ');
  const sentence = (n: number) =>
    Array.from({ length: 12 }, (_, i) => words[(n + i) % words.length]).join(' ') + '.';
  const paragraph = (n: number) =>
    `<p>${sentence(n)} <strong>${sentence(n + 1)}</strong> <em>${sentence(n + 2)}</em> <code>bfs(graph)</code> ${sentence(n + 3)}</p>`;
  return [
    `<h2>${sentence(0)}</h2>`,
    ...Array.from({ length: 8 }, (_, i) => paragraph(i)),
    `<ul>${Array.from({ length: 5 }, (_, i) => `<li>${sentence(i)}</li>`).join('')}</ul>`,
    '<pre><code>function bfs(graph, start) {\n  const seen = new Set([start]);\n  return seen;\n}</code></pre>',
    `<p><img src="${image}" alt="${sentence(3)}"></p>`,
    ...Array.from({ length: 4 }, (_, i) => paragraph(i + 8)),
  ].join('\n');
}

/** Written quiz questions, as the quiz jobs store them (a SCORM package needs them). */
function questions(count: number, language: string) {
  const words = WORDS[language]!.split(' ');
  return Array.from({ length: count }, (_, i) => ({
    question: `${words[i % words.length]} ${words[(i + 1) % words.length]}?`,
    options: words.slice(0, 4),
    answer: i % 4,
    explanation: words.slice(2, 6).join(' '),
  }));
}

const median = (values: number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  // The demo photos (opaque RGB PNGs, embedded as they are, like the vendor's JPEGs).
  const photos = [1, 2, 3, 4].map((n) => fs.readFileSync(`public/images/demo/photo-${n}.png`));
  let served = 0;
  const server = http.createServer((_request, response) => {
    const png = photos[served++ % photos.length]!;
    setTimeout(() => response.writeHead(200, { 'Content-Type': 'image/png' }).end(png), 20);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const { databaseFile, migrateDatabase, openDatabase } = await import('../db/connection');
  const { closeDatabase } = await import('~/utils/database.server');
  // Migrated and seeded on a connection of its own; the app reads through its data layer.
  const seeding = openDatabase(databaseFile(dataDir));
  const { createUser } = await import('~/models/users.server');
  const { createCourseWithLessons } = await import('~/models/courses.server');
  const { exportCourse } = await import('~/services/export/export.server');
  const { exportableCourse } = await import('~/services/export/course-export.server');
  const { exportScormPackage } = await import('~/services/export/scorm.server');
  migrateDatabase(seeding);

  const user = await createUser({
    email: 'bench@export.test',
    name: 'Bench',
    password: 'a-long-password',
  });
  const courses: { language: string; id: string }[] = [];
  for (const language of Object.keys(WORDS)) {
    const created = await createCourseWithLessons({
      userId: user.id,
      mainTopic: `Graph algorithms (${language})`,
      type: 'text',
      language,
      topics: Array.from({ length: TOPICS }, (_, t) => ({
        title: `Topic ${t + 1}`,
        lessons: Array.from({ length: LESSONS }, (_, l) => ({
          title: `Lesson ${t + 1}.${l + 1}`,
          theory: lessonHtml(language, `${base}/inline-${t}-${l}.png`),
          imageUrl: `${base}/photo-${t}-${l}.png`,
        })),
        quizQuestions: questions(5, language),
      })),
      examQuestions: questions(10, language),
    });
    courses.push({ language, id: created.course.id });
  }

  const cases: [string, () => Promise<unknown>][] = [];
  for (const course of courses) {
    cases.push([
      `baseline read (${course.language})`,
      async () => exportableCourse(user.id, course.id, { notes: false }),
    ]);
    cases.push([
      `Markdown (${course.language})`,
      () => exportCourse(user.id, course.id, 'md', { notes: false, origin: base }),
    ]);
    cases.push([
      `PDF (${course.language})`,
      () => exportCourse(user.id, course.id, 'pdf', { notes: false, origin: base }),
    ]);
    cases.push([
      `SCORM (${course.language})`,
      async () => {
        const result = await exportScormPackage({ id: user.id, plan: 'monthly' }, course.id, base);
        if (!result.ok) throw new Error(result.message);
        return result.value;
      },
    ]);
  }
  // One untimed round loads fonts and modules, as a running server already has.
  for (const [, run] of cases) await run();

  const times = new Map<string, number[]>(cases.map(([name]) => [name, []]));
  // How long the request thread stalls while PDFs are drawn (they run on a worker thread).
  const stall = monitorEventLoopDelay({ resolution: 10 });
  stall.enable();
  let size = 0;
  let scormSize = 0;
  for (let round = 0; round < RUNS; round += 1) {
    for (const [name, run] of cases) {
      const start = performance.now();
      const file = (await run()) as { body?: Buffer } | undefined;
      times.get(name)!.push(performance.now() - start);
      if (name.startsWith('PDF (en')) size = file?.body?.length ?? 0;
      if (name.startsWith('SCORM (en')) scormSize = file?.body?.length ?? 0;
    }
  }

  console.log(
    `Course export, ${TOPICS} topics x ${LESSONS} lessons, ${TOPICS * LESSONS * 2} images (${RUNS} interleaved rounds, median):`,
  );
  let missed = 0;
  const baselines = new Map<string, number>();
  for (const [name] of cases) {
    const ms = median(times.get(name)!);
    const language = name.match(/\((\w+)\)/)![1]!;
    if (name.startsWith('baseline')) {
      baselines.set(language, ms);
      console.log(`  ${name.padEnd(24)} ${ms.toFixed(1).padStart(8)} ms`);
      continue;
    }
    if (ms > TARGET_MS) missed += 1;
    const ratio = ms / baselines.get(language)!;
    console.log(
      `  ${name.padEnd(24)} ${ms.toFixed(1).padStart(8)} ms  (${ratio.toFixed(1)}x baseline; target < ${TARGET_MS} ms)${ms > TARGET_MS ? '  MISSED' : ''}`,
    );
  }
  stall.disable();
  console.log(
    `  longest request-thread stall during the runs: ${(stall.max / 1e6).toFixed(0)} ms (PDFs drawn on a worker thread; SCORM pages and zip on this thread)`,
  );
  console.log(`  English PDF size: ${(size / 1024 / 1024).toFixed(1)} MB`);
  console.log(`  English SCORM zip size: ${(scormSize / 1024 / 1024).toFixed(1)} MB`);
  server.close();
  seeding.$client.close();
  await closeDatabase();
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exitCode = missed > 0 ? 1 : 0;
}

await main();

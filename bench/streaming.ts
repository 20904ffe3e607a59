/**
 * Streaming benchmark: `npx tsx bench/streaming.ts`
 *
 * Starts the real product (web + worker, as `npm start` does) in demo mode with the AI mock
 * waiting BENCH_MODEL_MS (default 500) before its first words and then writing a few words every
 * 30 ms (its default pace), and measures over HTTP, through the routes the page uses:
 *
 * 1. Generate Course -> course view loaded -> the first lesson's first words on its stream
 *    (/status/lesson/:id, server-sent events), against the time to the whole lesson, stored
 *    (what the page showed before streaming: a spinner until then), interleaved in each run;
 * 2. the tutor: question posted -> first words of the answer, against the whole answer.
 *
 * Knobs: BENCH_MODEL_MS (default 500), BENCH_RUNS (default 9).
 * Needs Redis on 127.0.0.1:6379 (or REDIS_URL) and a build (made if stale).
 */
import { startApp, type RunningApp } from '../tests/support/app-process';
import { closeAppDatabases } from '../tests/support/members';
import { memberClient, post, request, type MemberClient } from './lib/member-client';
import { readEvents } from '~/browser/read-events';

const MODEL_MS = Number(process.env.BENCH_MODEL_MS ?? 500);
const RUNS = Number(process.env.BENCH_RUNS ?? 9);
const TARGET_FIRST_WORDS_MS = 600;

/** Submits /create and waits for the outline; returns the /topics path. */
async function outline(client: MemberClient, topic: string) {
  const form = new URLSearchParams({ topic, topicCount: '5', type: 'text', subtopic: 'Basics' });
  const topicsPath = await post(client, '/create', form);
  const outlineId = topicsPath.split('/').pop()!;
  for (let known = ''; ;) {
    const params = new URLSearchParams({ known, wait: '20000' });
    const status = (await (
      await request(client, `/status/outline/${outlineId}?${params}`)
    ).json()) as { version: string; state: string };
    if (status.state === 'done') return topicsPath;
    known = status.version;
  }
}

/**
 * Generate Course, then the course view as the browser loads it, then its lesson's stream, as
 * the page's EventSource opens it. Times from the click to the first words and to the stored
 * lesson (the stream's `done`).
 */
async function lessonRun(client: MemberClient, topicsPath: string) {
  const start = performance.now();
  const coursePath = await post(client, topicsPath, new URLSearchParams());
  const html = await (await request(client, coursePath)).text();
  const lessonId = /data-lesson-id="(\d+)"/.exec(html)?.[1];
  if (!lessonId) throw new Error('the course view shows no lesson');
  const pageMs = performance.now() - start;
  if (html.includes('data-testid="lesson-theory"'))
    throw new Error('the lesson was already written');
  let firstWordsMs: number | undefined;
  const response = await request(client, `/status/lesson/${lessonId}`, {
    headers: { Accept: 'text/event-stream' },
  });
  let doneMs: number | undefined;
  await readEvents(response, (event, data) => {
    if ((event === 'append' || event === 'reset') && (data as string).trim())
      firstWordsMs ??= performance.now() - start;
    if (event === 'done') doneMs = performance.now() - start;
  });
  if (firstWordsMs === undefined || doneMs === undefined)
    throw new Error('the stream ended without words or without the lesson');
  return { pageMs, firstWordsMs, doneMs, lessonId: Number(lessonId) };
}

async function tutorRun(client: MemberClient, lessonId: number, question: string) {
  const start = performance.now();
  const response = await request(client, `/tutor/${lessonId}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'text/event-stream' },
    body: JSON.stringify({ question }),
  });
  let firstMs: number | undefined;
  let wholeMs: number | undefined;
  await readEvents(response, (event) => {
    if (event === 'append') firstMs ??= performance.now() - start;
    if (event === 'done') wholeMs = performance.now() - start;
  });
  if (firstMs === undefined || wholeMs === undefined) throw new Error('the tutor did not answer');
  return { firstMs, wholeMs };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};
const ms = (value: number) => `${Math.round(value)} ms`;

async function main() {
  console.log(
    `Streaming benchmark: mock AI waits ${MODEL_MS} ms before its first words, ${RUNS} runs\n`,
  );
  let app: RunningApp | undefined;
  try {
    app = await startApp({ MOCK_AI_LATENCY_MS: String(MODEL_MS), AI_REQUESTS_PER_HOUR: '100000' });
    const client = await memberClient(app, 'monthly');
    // Outlines first (each waits for the model too), so each run times only its lesson.
    const outlines: string[] = [];
    for (let i = 0; i <= RUNS; i += 1) outlines.push(await outline(client, `Stream Topic ${i}`));

    const warm = await lessonRun(client, outlines[0]!); // loads code paths, opens connections
    await tutorRun(client, warm.lessonId, 'What are the basics of Stream Topic 0?');

    const page: number[] = [];
    const firstWords: number[] = [];
    const whole: number[] = [];
    const tutorFirst: number[] = [];
    const tutorWhole: number[] = [];
    for (let i = 1; i <= RUNS; i += 1) {
      const run = await lessonRun(client, outlines[i]!);
      page.push(run.pageMs);
      firstWords.push(run.firstWordsMs);
      whole.push(run.doneMs);
      const tutor = await tutorRun(client, run.lessonId, `Which basics of Stream Topic ${i}?`);
      tutorFirst.push(tutor.firstMs);
      tutorWhole.push(tutor.wholeMs);
    }

    const rows: [string, string, string][] = [
      ['Generate Course -> course view loaded', ms(median(page)), ''],
      [
        'Generate Course -> first words of lesson 1 on its stream',
        ms(median(firstWords)),
        `under ${TARGET_FIRST_WORDS_MS} ms`,
      ],
      [
        'Generate Course -> lesson 1 whole (before: a spinner until then)',
        ms(median(whole)),
        `first words at ${(median(firstWords) / median(whole)).toFixed(2)} of it`,
      ],
      ['Tutor: question -> first words of the answer', ms(median(tutorFirst)), ''],
      [
        'Tutor: question -> whole answer',
        ms(median(tutorWhole)),
        `first words at ${(median(tutorFirst) / median(tutorWhole)).toFixed(2)} of it`,
      ],
    ];
    const width = Math.max(...rows.map((row) => row[0].length));
    console.log(`${'Measure (median)'.padEnd(width)}  Result    Note`);
    for (const [name, value, note] of rows)
      console.log(`${name.padEnd(width)}  ${value.padEnd(8)}  ${note}`);
    if (median(firstWords) >= TARGET_FIRST_WORDS_MS) {
      console.log(`\nMISSED: first words median over ${TARGET_FIRST_WORDS_MS} ms`);
      process.exitCode = 1;
    }
  } finally {
    await closeAppDatabases();
    await app?.stop();
  }
}

await main();

import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApp, type RunningApp } from '../support/app-process';
import { createCourse, signUp, type Person } from '../support/person-http';
import { until } from '../support/processes';

/**
 * What an operator sees of a running node (ADR 0056): GET /metrics for the bearer of
 * METRICS_TOKEN, the node's processes (two web processes and the worker) summed into one scrape
 * that promtool accepts, and a request id that follows the work from the request that asked for
 * it to the worker's lesson jobs.
 */
const TOKEN = 'metrics-token-for-the-tests-0123';
const PROMTOOL = process.env.PROMTOOL_PATH ?? '/usr/bin/promtool';
let app: RunningApp;

beforeAll(async () => {
  app = await startApp({
    METRICS_TOKEN: TOKEN,
    // A proxy in front would set X-Request-Id: trusted only with TRUST_PROXY.
    TRUST_PROXY: 'true',
    LOG_LEVEL: 'info',
    WEB_CONCURRENCY: '2',
  });
}, 120_000);

afterAll(async () => {
  await app?.stop();
});

async function scrape(): Promise<string> {
  const response = await fetch(`${app.baseURL}/metrics`, {
    headers: { Authorization: `Bearer ${TOKEN}` },
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
}

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

function samples(text: string): Sample[] {
  return text
    .split('\n')
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]),
      );
      return { name: match[1]!, labels, value: Number(match[3]) };
    });
}

/** The sum of a metric's samples whose labels include `labels`. */
function total(text: string, name: string, labels: Record<string, string> = {}): number {
  return samples(text)
    .filter(
      (sample) =>
        sample.name === name &&
        Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
    )
    .reduce((sum, sample) => sum + sample.value, 0);
}

function logLines(): Record<string, unknown>[] {
  return app
    .output()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => {
      try {
        return JSON.parse(line) as Record<string, unknown>;
      } catch {
        return {};
      }
    });
}

/** Generate on /topics, as its form posts it, with the id a proxy in front would give it. */
async function generate(person: Person, outlineId: string, requestId: string) {
  const response = await fetch(`${app.baseURL}/topics/${outlineId}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Origin: app.baseURL,
      Cookie: person.cookie,
      'X-Request-Id': requestId,
    },
    body: '',
    redirect: 'manual',
  });
  const courseId = /\/course\/([^/?#]+)/.exec(response.headers.get('location') ?? '')?.[1];
  if (!courseId) throw new Error(`Generate answered ${response.status}`);
  return { response, courseId };
}

async function lessonsWhenWritten(person: Person, courseId: string) {
  return until(
    async () => {
      const response = await fetch(`${app.baseURL}/status/course/${courseId}`, {
        headers: { Cookie: person.cookie },
      });
      const { lessons } = (await response.json()) as { lessons: { state: string }[] };
      return lessons.length > 0 && lessons.every((lesson) => lesson.state === 'done')
        ? lessons.length
        : undefined;
    },
    120_000,
    250,
  );
}

describe('GET /metrics', () => {
  it('is refused without the bearer token, and with a wrong one', async () => {
    const none = await fetch(`${app.baseURL}/metrics`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer');
    expect(await none.text()).not.toContain('coursegen_');
    const wrong = await fetch(`${app.baseURL}/metrics`, {
      headers: { Authorization: `Bearer ${TOKEN.replace(/.$/, 'x')}` },
    });
    expect(wrong.status).toBe(401);
    const post = await fetch(`${app.baseURL}/metrics`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${TOKEN}` },
    });
    expect(post.status).toBe(405);
  });

  it("counts a written course's lessons and AI calls, summed over the node, and promtool accepts it", async () => {
    if (!fs.existsSync(PROMTOOL))
      throw new Error(
        `promtool is needed (${PROMTOOL}): Debian/Ubuntu: sudo apt-get install prometheus`,
      );
    const person = await signUp(app.baseURL);
    const outlineId = await createCourse(app.baseURL, person, 'Beekeeping');
    const before = await scrape();
    const { courseId } = await generate(person, outlineId, 'metrics-course');
    const lessons = await lessonsWhenWritten(person, courseId);
    // Requests answered by either web process: the node's scrape counts every one.
    const healthBefore = total(before, 'coursegen_http_request_duration_seconds_count', {
      route: '/healthz',
    });
    for (let i = 0; i < 12; i += 1)
      await fetch(`${app.baseURL}/healthz`, { headers: { Connection: 'close' } });
    // A lesson's job ends a moment after the page sees the lesson.
    const lessonJobs = { queue: 'lesson', outcome: 'completed' };
    const after = await until(async () => {
      const text = await scrape();
      const ended =
        total(text, 'coursegen_job_duration_seconds_count', lessonJobs) -
        total(before, 'coursegen_job_duration_seconds_count', lessonJobs);
      return ended >= lessons ? text : undefined;
    }, 10_000);

    const delta = (name: string, labels: Record<string, string> = {}) =>
      total(after, name, labels) - total(before, name, labels);
    expect(delta('coursegen_lessons_written_total')).toBe(lessons);
    expect(
      delta('coursegen_ai_requests_total', {
        provider: 'anthropic',
        purpose: 'lesson',
        outcome: 'ok',
      }),
    ).toBe(lessons);
    expect(delta('coursegen_ai_request_duration_seconds_count', { purpose: 'lesson' })).toBe(
      lessons,
    );
    expect(delta('coursegen_job_duration_seconds_count', lessonJobs)).toBe(lessons);
    // Each process counts a request once it has sent it, a moment after the client has it.
    await until(
      async () =>
        total(await scrape(), 'coursegen_http_request_duration_seconds_count', {
          route: '/healthz',
        }) -
          healthBefore ===
        12,
      5_000,
    );
    // The worker's figures, read from Redis when scraped, arrive through a web process.
    expect(after).toMatch(/^coursegen_queue_jobs\{queue="lesson",state="completed"\} \d+$/m);
    expect(total(after, 'coursegen_redis_up')).toBe(1);
    expect(after).toMatch(/^process_cpu_seconds_total \d/m);

    // Route templates, never a raw URL: no course, outline or member in any label.
    const routes = new Set(
      samples(after)
        .filter((sample) => sample.name === 'coursegen_http_request_duration_seconds_count')
        .map((sample) => sample.labels.route),
    );
    expect(routes).toContain('/topics/:outlineId');
    expect(routes).toContain('/status/course/:courseId');
    for (const secret of [courseId, outlineId, person.email, 'Beekeeping'])
      expect(after).not.toContain(secret);

    const check = spawnSync(PROMTOOL, ['check', 'metrics'], { input: after, encoding: 'utf8' });
    expect(check.stdout + check.stderr).toBe('');
    expect(check.status).toBe(0);
  }, 180_000);
});

describe('request ids', () => {
  it("are answered in X-Request-Id, taken from a trusted proxy's header when well formed", async () => {
    const given = await fetch(`${app.baseURL}/healthz`, {
      headers: { 'X-Request-Id': 'proxy-id-1234' },
    });
    expect(given.headers.get('x-request-id')).toBe('proxy-id-1234');
    const made = await fetch(`${app.baseURL}/healthz`);
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
    const odd = await fetch(`${app.baseURL}/api/courses`, {
      headers: { 'X-Request-Id': 'has spaces"and quotes' },
    });
    expect(odd.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("follow a request into its log lines and its lesson jobs' log lines", async () => {
    const malformed = await fetch(`${app.baseURL}/%E0%A4%A`, {
      headers: { 'X-Request-Id': 'malformed-request-1' },
    });
    expect(malformed.status).toBe(400);
    expect(malformed.headers.get('x-request-id')).toBe('malformed-request-1');

    const person = await signUp(app.baseURL);
    const outlineId = await createCourse(app.baseURL, person, 'Pottery');
    const requestId = `generate-${Date.now()}`;
    const { response, courseId } = await generate(person, outlineId, requestId);
    expect(response.headers.get('x-request-id')).toBe(requestId);
    const lessons = await lessonsWhenWritten(person, courseId);

    await until(
      () =>
        logLines().filter(
          (line) =>
            line.requestId === requestId &&
            line.event === 'job.completed' &&
            line.queue === 'lesson',
        ).length === lessons,
      30_000,
      100,
    );
    const lines = logLines().filter((line) => line.requestId === requestId);
    // The web process's line for the request, then every lesson's in the worker.
    expect(lines).toContainEqual(expect.objectContaining({ event: 'lesson.enqueued', courseId }));
    const stored = lines.filter((line) => line.event === 'lesson.stored');
    expect(stored).toHaveLength(lessons);
    expect(stored.every((line) => line.courseId === courseId)).toBe(true);
    // Other requests' lines do not carry it.
    expect(
      logLines().filter(
        (line) =>
          line.event === 'lesson.stored' &&
          line.courseId !== courseId &&
          line.requestId === requestId,
      ),
    ).toEqual([]);
    expect(logLines()).toContainEqual(
      expect.objectContaining({ event: 'request.malformed', requestId: 'malformed-request-1' }),
    );
  }, 180_000);
});

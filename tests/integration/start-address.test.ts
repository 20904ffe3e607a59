import { afterAll, describe, expect, it } from 'vitest';
import { startApp, type RunningApp } from '../support/app-process';

/**
 * What the start says once it serves (issue 35, item 11c). Inside a container it said "running
 * at http://localhost:3000" whatever port the host mapped: without APP_URL the start cannot know
 * the address members open, so it says the port it listens on and how to name the address.
 */
const apps: RunningApp[] = [];
afterAll(async () => {
  for (const app of apps) await app.stop();
});

/** The start's line saying it serves. */
async function runningLine(env: Record<string, string>) {
  const app = await startApp({ PROCESSES: 'web', ...env });
  apps.push(app);
  return { app, line: /CourseGen is running.*/.exec(app.output())![0] };
}

describe('the start, once it serves', () => {
  it('without APP_URL, names the port it listens on and APP_URL, and no address', async () => {
    const { app, line } = await runningLine({ APP_URL: '' });
    const port = new URL(app.baseURL).port;
    expect(line).toContain(`listening on port ${port}`);
    expect(line).toContain('APP_URL');
    expect(line).not.toMatch(/https?:\/\//);
  });

  it('with APP_URL, says it runs at that address', async () => {
    const { line } = await runningLine({ APP_URL: 'https://courses.example.com' });
    expect(line).toMatch(/^CourseGen is running at https:\/\/courses\.example\.com \(/);
  });
});

import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from '../support/browser';
import { signInAs, signUp } from '../support/members';
import { docxWithSections, pdfWithSections } from '../support/material-fixtures';

/**
 * Authoring as a new member does it (ADR 0032): shaping the outline on /topics before
 * Generate Course, and courses written from the member's own material, in a real browser
 * against the production build in demo mode (the AI mock builds outlines from the material's
 * headings and quotes it in lessons).
 */
describe('authoring in a browser', () => {
  const e2e = useBrowser();
  const { dataDir } = e2e;

  const toast = (page: Page, text: string) =>
    page.locator('.Toastify').getByText(text).first().waitFor();

  /** The outline as /topics shows it: each topic's title and its lessons' titles. */
  const shownOutline = (page: Page) =>
    page.getByTestId('outline').evaluate((outline) =>
      [...outline.querySelectorAll(':scope > li')].map((topic) => ({
        title: topic.querySelector('h2')!.textContent!.trim(),
        lessons: [...topic.querySelectorAll('.outline-lesson-title')].map((l) =>
          l.textContent!.trim(),
        ),
      })),
    );

  /** The course's outline as its sidebar lists it. */
  const courseOutline = (page: Page) =>
    page.getByRole('navigation', { name: 'Course topics' }).evaluate((nav) =>
      [...nav.querySelectorAll(':scope > details')].map((topic) => ({
        title: topic.querySelector('summary')!.textContent!.trim(),
        lessons: [...topic.querySelectorAll('.lesson-title')].map((l) => l.textContent!.trim()),
      })),
    );

  const saved = (page: Page) =>
    page.getByTestId('outline-save').getByText('All changes saved').waitFor();

  async function submitCreate(page: Page, topic: string, subtopic: string) {
    await page.goto('/create');
    await page.getByLabel('Topic', { exact: true }).fill(topic);
    await page.getByLabel('Sub Topic 1').fill(subtopic);
  }

  it('edits an outline, keeps the edits over a reload and generates exactly that course', async () => {
    const page = await e2e.newPage();
    await signUp(page, dataDir);
    await submitCreate(page, 'Photosynthesis', 'Chlorophyll');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(/\/topics\/[\w-]+$/);
    await page.getByTestId('outline').waitFor();
    const before = await shownOutline(page);
    expect(before).toHaveLength(5);

    // Rename the first topic (keyboard: open Rename, type, Enter).
    await page.getByLabel(`Rename topic “${before[0]!.title}”`).click();
    const title = page.getByLabel('Topic 1 title');
    await title.fill('Chlorophyll and Pigments');
    await title.press('Enter');
    await saved(page);

    // Move the second topic's last lesson up, with the keyboard.
    const moved = before[1]!.lessons[1]!;
    await page.getByRole('button', { name: `Move lesson “${moved}” up` }).focus();
    await page.keyboard.press('Enter');
    await saved(page);
    // Focus stays on the lesson that moved.
    await expect(
      page.evaluate(() => document.activeElement?.getAttribute('aria-label')),
    ).resolves.toBe(`Move lesson “${moved}” down`);

    // Remove the third topic's first lesson; add a lesson to the fourth and name it.
    await page.getByRole('button', { name: `Remove lesson “${before[2]!.lessons[0]}”` }).click();
    await saved(page);
    await page.getByRole('button', { name: `Add lesson to “${before[3]!.title}”` }).click();
    await saved(page);
    const added = page.getByLabel('Topic 4, lesson 3 title');
    await page.getByLabel('Rename lesson “New lesson”').click();
    await added.fill('Leaves at Night');
    await added.press('Enter');
    await saved(page);

    const expected = [
      { title: 'Chlorophyll and Pigments', lessons: before[0]!.lessons },
      { title: before[1]!.title, lessons: [moved, before[1]!.lessons[0]!] },
      { title: before[2]!.title, lessons: before[2]!.lessons.slice(1) },
      { title: before[3]!.title, lessons: [...before[3]!.lessons, 'Leaves at Night'] },
      before[4]!,
    ];
    expect(await shownOutline(page)).toEqual(expected);

    // A free member's sixth topic is refused with the plan's message, and nothing changes.
    await page.getByRole('button', { name: 'Add topic' }).click();
    await toast(page, 'For paid members only');
    expect(await shownOutline(page)).toHaveLength(5);

    // Nothing is lost on reload: the server holds every edit.
    await page.reload();
    await page.getByTestId('outline').waitFor();
    expect(await shownOutline(page)).toEqual(expected);

    await page.getByRole('button', { name: 'Generate Course' }).click();
    await page.waitForURL(/\/course\/[\w-]+$/);
    await page.getByTestId('lesson-theory').waitFor();
    expect(await courseOutline(page)).toEqual(expected);
    await page.context().close();
  });

  it('rewrites the outline with an instruction, and edits it without JavaScript', async () => {
    const page = await e2e.newPage();
    const member = await signUp(page, dataDir);
    await submitCreate(page, 'Chess', 'Openings');
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(/\/topics\/[\w-]+$/);
    await page.getByTestId('outline').waitFor();
    const url = page.url();
    const before = await shownOutline(page);

    await page.getByLabel('Rewrite the outline').fill('add a practice game');
    await page.getByRole('button', { name: 'Rewrite the outline' }).click();
    // The new outline replaces the old one by itself once the AI has written it.
    await page
      .getByTestId('outline')
      .getByText(`${before[0]!.title}: add a practice game`)
      .waitFor({ timeout: 30_000 });
    await expect(page.getByTestId('outline-rewriting').count()).resolves.toBe(0);

    // Without JavaScript the same buttons post the form, and the server applies them.
    const context = await e2e.browser.newContext({
      baseURL: e2e.baseURL,
      javaScriptEnabled: false,
    });
    await signInAs(context, e2e.baseURL, dataDir, member);
    const plain = await context.newPage();
    await plain.goto(url);
    const first = (await shownOutline(plain))[0]!;
    await plain.getByRole('button', { name: `Remove lesson “${first.lessons[0]}”` }).click();
    await plain.waitForURL(url);
    await plain.getByLabel(`Rename topic “${first.title}”`).click();
    await plain.getByLabel('Topic 1 title').fill('Openings, Revisited');
    await plain.getByRole('button', { name: 'Save the titles' }).first().click();
    await plain.waitForURL(url);
    expect((await shownOutline(plain))[0]).toEqual({
      title: 'Openings, Revisited',
      lessons: first.lessons.slice(1),
    });
    await context.close();
    await page.context().close();
  });

  const PDF_SECTIONS = [
    {
      heading: 'Light Reactions',
      text: 'Light reactions happen in the thylakoid membranes. Chlorophyll absorbs light and splits water, releasing oxygen. '.repeat(
        4,
      ),
    },
    {
      heading: 'The Calvin Cycle',
      text: 'The Calvin cycle runs in the stroma. It fixes carbon dioxide into sugar using ATP and NADPH. '.repeat(
        4,
      ),
      pages: 2,
    },
    {
      heading: 'Leaf Structure',
      text: 'Stomata on the underside of the leaf let carbon dioxide in. Guard cells open and close them. '.repeat(
        4,
      ),
    },
  ];

  it('builds an outline from a PDF’s headings, and lessons that cite its pages', async () => {
    const page = await e2e.newPage();
    await signUp(page, dataDir, { plan: 'monthly' });
    await submitCreate(page, 'Photosynthesis', 'Light Reactions');
    await page.getByLabel('Attach a document').setInputFiles({
      name: 'photosynthesis-notes.pdf',
      mimeType: 'application/pdf',
      buffer: await pdfWithSections(PDF_SECTIONS),
    });
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(/\/topics\/[\w-]+$/, { timeout: 30_000 });
    await page.getByTestId('outline').waitFor();
    await page.getByTestId('outline-material').getByText('photosynthesis-notes.pdf').waitFor();
    const outline = await shownOutline(page);
    expect(outline.map((topic) => topic.title)).toEqual([
      'Light Reactions',
      'The Calvin Cycle',
      'Leaf Structure',
    ]);

    await page.getByRole('button', { name: 'Generate Course' }).click();
    await page.waitForURL(/\/course\/[\w-]+$/);
    await page.getByTestId('lesson-theory').getByText('Your material').waitFor();
    await expect(page.getByTestId('lesson-sources').innerText()).resolves.toBe('Sources: page 1');
    await expect(page.getByTestId('lesson-theory').innerText()).resolves.toContain(
      'Light reactions happen in the thylakoid membranes.',
    );

    // The Calvin cycle ran over pages 2 and 3 of the PDF.
    await page
      .getByRole('navigation', { name: 'Course topics' })
      .getByRole('link', { name: /^Understanding The Calvin Cycle/ })
      .click();
    await page.getByTestId('lesson-sources').getByText('Sources: pages 2–3').waitFor();

    // The sources link to the text read from the document, which only its owner can open.
    await page.getByTestId('lesson-sources').getByRole('link').click();
    await page.waitForURL(/\/documents\/[\w-]+#section-2$/);
    // The URL changes before the lesson page gives way to the document.
    await page.getByTestId('lesson-theory').waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: /The Calvin Cycle/ }).waitFor();
    await page.context().close();
  });

  it('does the same with a DOCX and with pasted text', async () => {
    const page = await e2e.newPage();
    await signUp(page, dataDir, { plan: 'yearly' });
    await submitCreate(page, 'Gardening', 'Soil Types');
    await page.getByLabel('Attach a document').setInputFiles({
      name: 'garden-handbook.docx',
      mimeType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
      buffer: await docxWithSections([
        {
          heading: 'Soil Types',
          text: 'Clay holds water; sand drains it. Loam mixes both. '.repeat(4),
        },
        {
          heading: 'Watering Schedules',
          text: 'Water early in the morning, deeply and rarely. '.repeat(4),
        },
        {
          heading: 'Pruning Roses',
          text: 'Prune roses in late winter, above an outward bud. '.repeat(4),
        },
      ]),
    });
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(/\/topics\/[\w-]+$/, { timeout: 30_000 });
    await page.getByTestId('outline').waitFor();
    expect((await shownOutline(page)).map((topic) => topic.title)).toEqual([
      'Soil Types',
      'Watering Schedules',
      'Pruning Roses',
    ]);
    await page.getByRole('button', { name: 'Generate Course' }).click();
    await page.waitForURL(/\/course\/[\w-]+$/);
    await page.getByTestId('lesson-theory').getByText('Clay holds water').first().waitFor();
    await expect(page.getByTestId('lesson-sources').innerText()).resolves.toBe(
      'Sources: “Soil Types”',
    );

    // Pasted text, on the free plan: its Markdown headings become the topics.
    const free = await e2e.newPage();
    await signUp(free, dataDir);
    await submitCreate(free, 'Geography', 'Rivers');
    await free
      .getByLabel('Or paste text')
      .fill(
        [
          '# Rivers',
          'Rivers carry water from the hills to the sea and shape valleys as they go. '.repeat(2),
          '# Mountains',
          'Mountains form where tectonic plates collide and push rock upwards. '.repeat(2),
          '# Deserts',
          'Deserts receive less than 250 millimetres of rain a year. '.repeat(2),
        ].join('\n\n'),
      );
    await free.getByRole('button', { name: 'Submit' }).click();
    await free.waitForURL(/\/topics\/[\w-]+$/, { timeout: 30_000 });
    await free.getByTestId('outline').waitFor();
    expect((await shownOutline(free)).map((topic) => topic.title)).toEqual([
      'Rivers',
      'Mountains',
      'Deserts',
    ]);
    await free.getByRole('button', { name: 'Generate Course' }).click();
    await free.waitForURL(/\/course\/[\w-]+$/);
    await free.getByTestId('lesson-theory').getByText('Rivers carry water').waitFor();
    await expect(free.getByTestId('lesson-sources').innerText()).resolves.toBe('Sources: “Rivers”');

    // The plan table says the same on /pricing.
    await free.goto('/pricing');
    const plans = free.getByTestId('material-plans');
    await plans
      .getByText('Paste up to 20,000 characters of text; documents need a paid plan')
      .waitFor();
    await expect(
      plans.getByText(/Attach a PDF, DOCX, Markdown or text file/).count(),
    ).resolves.toBe(2);
    await page.context().close();
    await free.context().close();
  });
});

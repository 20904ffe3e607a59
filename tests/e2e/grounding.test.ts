import { describe, expect, it } from 'vitest';
import { useBrowser } from '../support/browser';
import { signUp } from '../support/members';
import { printedPdf } from '../support/material-fixtures';

/**
 * A course grounded in the whole document (issue 37, ADR 0058), in a real browser against the
 * production build in demo mode: a printed PDF with a cover page, a table of contents, running
 * headers and footers and 12 headed sections (one called "Introduction") on a paid plan, in the
 * 5 topics /create offers first.
 */
const SUBJECTS = [
  'Introduction',
  'Glob patterns',
  'Magic rules',
  'Subclassing',
  'Aliases',
  'Icons',
  'Security',
  'Storage format',
  'Metadata',
  'Conflicts',
  'Cache files',
  'Byte order',
];
const SECTIONS = SUBJECTS.map((subject, i) => ({
  heading: `${i + 1}. ${subject}`,
  text: `This section covers ${subject.toLowerCase()} in detail, and how ${subject.toLowerCase()} relates to the rest of the database. `.repeat(
    8,
  ),
}));

describe('a course grounded in the whole document', () => {
  const e2e = useBrowser();
  const { dataDir } = e2e;

  it('teaches every section, nothing of the cover or contents, and each lesson cites its own section', async () => {
    const page = await e2e.newPage();
    await signUp(page, dataDir, { plan: 'monthly' });
    await page.goto('/create');
    await page.getByLabel('Topic', { exact: true }).fill('Shared MIME-info');
    await page.getByLabel('Attach a document').setInputFiles({
      name: 'mime-spec.pdf',
      mimeType: 'application/pdf',
      buffer: await printedPdf({ title: 'Shared MIME-info Database', sections: SECTIONS }),
    });
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(/\/topics\/[\w-]+$/, { timeout: 30_000 });
    await page.getByTestId('outline').waitFor();

    const outline = await page.getByTestId('outline').innerText();
    const lessons = await page
      .locator('.outline-lesson-title')
      .evaluateAll((titles) => titles.map((t) => t.textContent!.trim()));
    // Every section is taught, grouped into the topics asked for, each saying its pages.
    expect(lessons.flatMap((title) => title.split('; '))).toEqual(SECTIONS.map((s) => s.heading));
    const topics = await page.getByTestId('outline-topic').count();
    expect(topics).toBeLessThan(SECTIONS.length);
    await expect(page.getByTestId('outline-covers').count()).resolves.toBe(topics);
    await expect(page.getByTestId('outline-covers').first().innerText()).resolves.toMatch(
      /^Covers pages? 3/,
    );
    for (const junk of ['Thomas Leonard', 'Contents', 'Draft', 'Page 2 of'])
      expect(outline).not.toContain(junk);

    await page.getByRole('button', { name: 'Generate Course' }).click();
    await page.waitForURL(/\/course\/[\w-]+$/);
    const nav = page.getByRole('navigation', { name: 'Course topics' });
    // The course page may answer before its navigation lists the lessons (a busy machine).
    await nav.locator('a[href*="?lesson="]').first().waitFor();
    const links = await nav.locator('a[href*="?lesson="]').evaluateAll((as) =>
      as.map((a) => ({
        href: a.getAttribute('href')!,
        title: a.querySelector('.lesson-title')!.textContent!.trim(),
      })),
    );
    expect(links.map((l) => l.title)).toEqual(SECTIONS.map((s) => s.heading));
    const cited: { lesson: string; section: string }[] = [];
    const course = page.url();
    for (const link of links) {
      await page.goto(new URL(link.href, course).href);
      await page
        .getByTestId('lesson-theory')
        .getByText('Your material')
        .waitFor()
        .catch((error: Error) => {
          throw new Error(`${link.title} (${page.url()}): ${error.message}`);
        });
      const source = page.getByTestId('lesson-sources').getByRole('link');
      // A PDF's passages are cited by their pages.
      await expect(source.innerText()).resolves.toMatch(/^Sources: pages? \d/);
      cited.push({ lesson: link.title, section: (await source.getAttribute('href'))! });
    }
    // Each Sources link opens the lesson's own section of the text read from the document.
    const documentPath = cited[0]!.section.split('#')[0]!;
    await page.goto(documentPath);
    for (const { lesson, section } of cited) {
      const id = section.split('#')[1]!;
      await expect(
        page.locator(`[id="${id}"] h2`).innerText(),
        `${lesson} cites ${id}`,
      ).resolves.toMatch(new RegExp(`^${lesson.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
    }
    // The section a Sources link opens is the one highlighted.
    const outlined = () =>
      page
        .getByTestId('document-sections')
        .locator(':scope > li')
        .evaluateAll((items) =>
          items.filter((li) => getComputedStyle(li).outlineStyle !== 'none').map((li) => li.id),
        );
    await page.goto(new URL(cited[4]!.section, course).href);
    await expect(outlined()).resolves.toEqual([cited[4]!.section.split('#')[1]]);
    // The cover and the contents are not in the text read either.
    const text = await page.getByTestId('document-sections').innerText();
    for (const junk of ['Thomas Leonard', 'Table of Contents', '— Draft'])
      expect(text).not.toContain(junk);

    // The first topic's quiz asks what its sections say, not only about their headings.
    await page.goto(course);
    await nav.locator('details').first().getByRole('link', { name: 'Topic quiz' }).click();
    const question = page.locator('.quiz-form fieldset').first();
    await question.waitFor({ timeout: 60_000 });
    await expect(question.locator('legend').innerText()).resolves.toContain('"1. Introduction"');
    const options = await question.locator('label').allInnerTexts();
    expect(options.map((option) => option.trim())).toContain(
      SECTIONS[0]!.text.split('. ')[0] + '.',
    );
    // And the cards ask about the passages, not about the course (issue 37's "Which course
    // teaches …?").
    await expect
      .poll(
        async () => {
          await page.goto(`${course}/cards`);
          return page.locator('main').innerText();
        },
        { timeout: 60_000, interval: 1_000 },
      )
      .toMatch(/In 1\. Introduction \(pages? 3/);
    const cards = await page.locator('main').innerText();
    expect(cards).toContain(SECTIONS[1]!.text.split(' in detail')[0]);
    expect(cards).not.toContain('Which course teaches');
    await page.setViewportSize({ width: 390, height: 800 });
    await page.goto(documentPath + '#section-1');
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth > document.documentElement.clientWidth,
    );
    expect(overflow).toBe(false);
    await page.context().close();
  });
});

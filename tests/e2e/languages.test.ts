import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { useBrowser } from '../support/browser';
import { insertCourse } from '../support/courses';
import { signUp } from '../support/members';

/**
 * Courses in other languages, as a new member makes them in demo mode: the outline and the
 * lessons come in the chosen language's script, Arabic reads right to left, and the
 * certificate draws Devanagari and Arabic titles.
 */
const DEVANAGARI = /\p{Script=Devanagari}{3}/u;
const ARABIC = /\p{Script=Arabic}{3}/u;

describe('course languages in a browser', () => {
  const e2e = useBrowser();
  const { dataDir } = e2e;

  /** /create with a language chosen, then Generate Course; ends on the course view. */
  async function createCourse(page: Page, topic: string, subtopic: string, language: string) {
    await page.goto('/create');
    await page.getByLabel('Topic', { exact: true }).fill(topic);
    await page.getByLabel('Sub Topic 1').fill(subtopic);
    const select = page.getByLabel('Course language');
    await expect(select.inputValue()).resolves.toBe('en');
    await expect(select.locator('option').count()).resolves.toBeGreaterThanOrEqual(23);
    await select.selectOption({ label: language });
    await page.getByRole('button', { name: 'Submit' }).click();
    await page.waitForURL(/\/topics\/[\w-]+$/);
    const outline = page.getByTestId('outline');
    await outline.waitFor({ timeout: 30_000 });
    const titles = await outline.getByRole('heading').allInnerTexts();
    await page.getByRole('button', { name: 'Generate Course' }).click();
    await page.waitForURL(/\/course\/[\w-]+$/);
    await page.getByTestId('lesson-theory').waitFor({ timeout: 30_000 });
    return { titles };
  }

  it('writes a Hindi course in Devanagari and says so on /home', async () => {
    const page = await e2e.newPage();
    await signUp(page, dataDir);
    const { titles } = await createCourse(page, 'Astronomy', 'Telescopes', 'Hindi (हिन्दी)');
    expect(titles.filter((title) => DEVANAGARI.test(title)).length).toBeGreaterThanOrEqual(4);

    const theory = page.getByTestId('lesson-theory');
    await expect(theory.innerText()).resolves.toMatch(DEVANAGARI);
    await expect(theory.getAttribute('lang')).resolves.toBe('hi');
    await expect(theory.evaluate((el) => getComputedStyle(el).direction)).resolves.toBe('ltr');
    await expect(page.getByTestId('course-language').innerText()).resolves.toBe('Hindi');
    // The bundled Devanagari font, regular and bold, is downloaded for the lesson's text
    // (machines without a Devanagari font would show empty boxes otherwise).
    const loadedFaces = await page.evaluate(async () => {
      await document.fonts.ready;
      return [...document.fonts]
        .filter((face) => face.status === 'loaded' && face.unicodeRange.includes('U+900-97F'))
        .map((face) => face.weight)
        .sort();
    });
    expect(loadedFaces).toEqual(['400', '700']);
    // The chrome stays English.
    await page.getByRole('navigation', { name: 'Course topics' }).waitFor();

    // A later lesson, written by its own job, is in Hindi too.
    // Lessons only: each topic also lists its quiz and flashcards.
    const links = page
      .getByRole('navigation', { name: 'Course topics' })
      .locator('a[href*="?lesson="]');
    await links.nth(3).click();
    await page.waitForURL(/\?lesson=\d+$/);
    await expect(page.getByTestId('lesson-theory').innerText({ timeout: 30_000 })).resolves.toMatch(
      DEVANAGARI,
    );

    await page.goto('/home');
    const card = page.getByTestId('course-card');
    await expect(card.getByTestId('course-language').innerText()).resolves.toBe('Hindi');
    await page.context().close();
  });

  it('writes an Arabic course right to left', async () => {
    const page = await e2e.newPage();
    await signUp(page, dataDir);
    const { titles } = await createCourse(page, 'Chemistry', 'Atoms', 'Arabic (العربية)');
    expect(titles.filter((title) => ARABIC.test(title)).length).toBeGreaterThanOrEqual(4);

    const lesson = page.getByTestId('lesson');
    const theory = page.getByTestId('lesson-theory');
    await expect(theory.innerText()).resolves.toMatch(ARABIC);
    for (const element of [theory, lesson.locator(':scope > h2')]) {
      await expect(element.evaluate((el) => getComputedStyle(el).direction)).resolves.toBe('rtl');
      await expect(element.getAttribute('lang')).resolves.toBe('ar');
    }
    // A right-to-left paragraph starts at the right edge of the lesson.
    const aligned = await theory
      .locator('p')
      .first()
      .evaluate((p) => {
        const range = document.createRange();
        range.selectNodeContents(p);
        const text = range.getBoundingClientRect();
        const box = p.getBoundingClientRect();
        return { rightGap: box.right - text.right, leftGap: text.left - box.left };
      });
    expect(aligned.rightGap).toBeLessThan(aligned.leftGap);
    // The page around it stays left to right, in English.
    await expect(
      page.locator('html').evaluate((el) => getComputedStyle(el).direction),
    ).resolves.toBe('ltr');
    await page.context().close();
  });

  /**
   * The share of dark pixels in two boxes of the certificate PNG, read in the page: where the
   * course title is drawn, and an empty box below it (the baseline of the measure).
   */
  async function certificateInk(page: Page) {
    const image = page.getByTestId('certificate-image');
    await image.waitFor({ timeout: 30_000 });
    return image.evaluate(async (img: HTMLImageElement) => {
      if (!img.complete) await new Promise((resolve) => img.addEventListener('load', resolve));
      const canvas = document.createElement('canvas');
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const context = canvas.getContext('2d')!;
      context.drawImage(img, 0, 0);
      const ink = (x: number, y: number, width: number, height: number) => {
        const { data } = context.getImageData(x, y, width, height);
        let dark = 0;
        for (let i = 0; i < data.length; i += 4)
          if (data[i]! * 0.3 + data[i + 1]! * 0.59 + data[i + 2]! * 0.11 < 128) dark += 1;
        return dark / (width * height);
      };
      // 2000 x 1414: the title sits on a baseline near y = 944, the seal starts at y = 1084.
      return { title: ink(200, 860, 1600, 120), empty: ink(700, 1010, 600, 60) };
    });
  }

  it('draws Devanagari and Arabic course titles on the certificate', async () => {
    const page = await e2e.newPage();
    const member = await signUp(page, dataDir, { name: 'Meera' });
    const inks: Record<string, { title: number; empty: number }> = {};
    for (const [key, title] of [
      ['hindi', 'खगोल विज्ञान का परिचय'],
      ['arabic', 'مقدمة في علم الفلك'],
    ] as const) {
      const courseId = await insertCourse(dataDir, member.id, {
        mainTopic: title,
        lessons: 2,
        allDone: true,
      });
      await page.goto(`/course/${courseId}`);
      await page.getByRole('link', { name: 'Certificate', exact: true }).click();
      await page.getByTestId('congratulations').waitFor({ timeout: 30_000 });
      await expect(page.getByTestId('congratulations').innerText()).resolves.toContain(title);
      inks[key] = await certificateInk(page);
    }
    for (const ink of Object.values(inks)) {
      expect(ink.empty).toBeLessThan(0.001);
      // Glyphs, not an empty line: a title of this length inks several percent of its box.
      expect(ink.title).toBeGreaterThan(0.02);
    }
    await page.context().close();
  });
});

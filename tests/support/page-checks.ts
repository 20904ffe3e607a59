import fs from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** The two screens every page must fit (conventions, rule 18): a phone and a laptop. */
export const VIEWPORTS = [
  { name: 'phone', width: 390, height: 844 },
  { name: 'desktop', width: 1280, height: 800 },
] as const;

/**
 * WCAG 2.1 levels A and AA, the bar the conventions set; axe's best-practice and AAA rules are
 * advice, not this bar.
 */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];
/** The impacts that fail a page (axe's "minor" and "moderate" are reported by axe, not here). */
const FAILING_IMPACTS = ['serious', 'critical'];

const axeSource = fs.readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

/** What sticks out where it should not, as the page lays out now (run in the page). */
interface OutOfPlace {
  /** Elements past the window's right edge, the innermost (the causes) first. */
  pastTheRight: string[];
  /** Elements partly past the window's left edge: cut off, as no one can scroll there. */
  cutOffAtTheLeft: string[];
  /** Fields and buttons sticking out of their form (its card, or the box in its card). */
  outsideTheirForm: string[];
}

function outOfPlace(): OutOfPlace {
  const width = window.innerWidth;
  const describe = (element: Element) => {
    const parts: string[] = [];
    for (let node: Element | null = element; node && parts.length < 4; node = node.parentElement) {
      const classes = [...node.classList].slice(0, 2).map((name) => `.${name}`);
      parts.unshift(
        `${node.tagName.toLowerCase()}${node.id ? `#${node.id}` : ''}${classes.join('')}`,
      );
      if (node.id) break;
    }
    const rect = element.getBoundingClientRect();
    return `${parts.join(' > ')} (${Math.round(rect.left)}-${Math.round(rect.right)}px)`;
  };
  /** In a box that scrolls or clips it, where sticking out is that box's business. */
  const clipped = (element: Element) => {
    for (
      let node = element.parentElement;
      node && node !== document.body;
      node = node.parentElement
    )
      if (getComputedStyle(node).overflowX !== 'visible') return true;
    return false;
  };
  // Shown: not in a closed <details>, not display: none, not invisible, and of some size.
  const shown = (element: Element) => {
    const rect = element.getBoundingClientRect();
    return (
      rect.width > 0 && rect.height > 0 && element.checkVisibility({ visibilityProperty: true })
    );
  };
  const innermost = (found: Element[]) =>
    found
      .filter((element) => ![...element.children].some((child) => found.includes(child)))
      .slice(0, 8)
      .map(describe);
  const elements = [...document.body.querySelectorAll('*')].filter(
    (element) => shown(element) && !clipped(element),
  );
  const pastTheRight = elements.filter(
    (element) => element.getBoundingClientRect().right > width + 0.5,
  );
  // Wholly off to the left is how a skip link hides until focused; partly off is cut off.
  const cutOffAtTheLeft = elements.filter((element) => {
    const rect = element.getBoundingClientRect();
    return rect.left < -0.5 && rect.right > 0;
  });
  const outsideTheirForm: Element[] = [];
  for (const form of document.querySelectorAll('form')) {
    if (!shown(form)) continue;
    const box = form.getBoundingClientRect();
    for (const field of form.querySelectorAll('input, select, textarea, button')) {
      if (!shown(field)) continue;
      const rect = field.getBoundingClientRect();
      if (rect.right > box.right + 0.5 || rect.left < box.left - 0.5) outsideTheirForm.push(field);
    }
  }
  return {
    pastTheRight: innermost(pastTheRight),
    cutOffAtTheLeft: innermost(cutOffAtTheLeft),
    outsideTheirForm: outsideTheirForm.slice(0, 8).map(describe),
  };
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/**
 * What is wrong with the page as it stands at this window size: sideways scrolling (with the
 * elements that cause it), content cut off at the left edge, fields sticking out of their form,
 * and axe's serious and critical WCAG 2.1 A/AA violations (with the
 * offending elements). Empty when the page passes.
 */
export async function pageProblems(page: Page): Promise<string[]> {
  const problems: string[] = [];
  const widths = await page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    window: window.innerWidth,
  }));
  const found = await page.evaluate(outOfPlace);
  if (widths.scroll > widths.window)
    problems.push(
      `scrolls sideways: ${widths.scroll}px wide in a ${widths.window}px window; sticking out: ${found.pastTheRight.join('; ')}`,
    );
  if (found.cutOffAtTheLeft.length > 0)
    problems.push(`cut off at the left edge: ${found.cutOffAtTheLeft.join('; ')}`);
  if (found.outsideTheirForm.length > 0)
    problems.push(`fields stick out of their form: ${found.outsideTheirForm.join('; ')}`);
  // Evaluated rather than added as a <script>: the page's CSP (nonces) would refuse that.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const violations = await page.evaluate(
    (tags) =>
      (
        window as unknown as {
          axe: { run: (context: Document, options: object) => Promise<{ violations: unknown }> };
        }
      ).axe
        .run(document, { runOnly: { type: 'tag', values: tags }, resultTypes: ['violations'] })
        .then((results) => results.violations),
    AXE_TAGS,
  );
  for (const violation of violations as AxeViolation[]) {
    if (!violation.impact || !FAILING_IMPACTS.includes(violation.impact)) continue;
    const targets = violation.nodes.map((node) => node.target.map(String).join(' '));
    const shown = targets.slice(0, 10).join(' | ');
    const more = targets.length > 10 ? ` (+${targets.length - 10} more)` : '';
    problems.push(
      `${violation.id} (${violation.impact}, ${targets.length}): ${violation.help}: ${shown}${more}`,
    );
  }
  return problems;
}

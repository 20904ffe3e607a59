import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { database, tables } from '~/utils/database.server';
import {
  DEFAULT_PLAN_FORM,
  postPlanSettings,
  twoWebProcessesForThisFile,
  type SignedIn,
  type WebProcess,
} from '../support/settings-nodes';
import { until } from '../support/processes';

/**
 * Plans as data (issue 40, ADR 0055): only the main admin reads or changes them, the server holds
 * members to them, and every web process serves a change without a restart. Two web processes
 * share this file's database and Redis, as `npm start` runs them on one node or as two nodes do.
 */
type Web = WebProcess;
const nodes = twoWebProcessesForThisFile();
let first: Web;
let second: Web;
let owner: SignedIn;
let admin: SignedIn;
let free: SignedIn;
beforeAll(() => {
  ({ first, second, owner, admin, free } = nodes);
});

const SETTINGS = DEFAULT_PLAN_FORM;
const saveSettings = postPlanSettings;

const storedPlans = async () =>
  (await database().select().from(tables.settings).where(eq(tables.settings.key, 'plans')))[0]
    ?.value ?? null;

/** A course of `topics` topics whose lessons bring their own text (no AI, no allowance). */
function createCourse(web: Web, cookie: string, topics: number) {
  return fetch(`${web.base}/api/course`, {
    method: 'POST',
    headers: { Cookie: cookie, Origin: web.base, 'Content-Type': 'application/json' },
    body: JSON.stringify({
      mainTopic: 'Knots',
      type: 'text',
      content: {
        knots: Array.from({ length: topics }, (_, t) => ({
          title: `Knot ${t + 1}`,
          subtopics: [{ title: `Tying knot ${t + 1}`, theory: '<p>Over, under, through.</p>' }],
        })),
      },
    }),
  });
}

describe('plan settings', () => {
  it('are the main admin’s alone: a member and an admin can neither read nor change them', async () => {
    const memberPage = await fetch(`${first.base}/admin/settings`, {
      headers: { Cookie: free.cookie },
      redirect: 'manual',
    });
    // The admin panel's own rule for members: back to their home, nothing of the page shown.
    expect(memberPage.status).toBe(302);
    expect(memberPage.headers.get('location')).toBe('/home');
    const adminPage = await fetch(`${first.base}/admin/settings`, {
      headers: { Cookie: admin.cookie },
      redirect: 'manual',
    });
    expect(adminPage.status).toBe(404);
    expect(await adminPage.text()).not.toContain('name="monthlyPrice"');

    const cheap = { ...SETTINGS, monthlyPrice: '1', freeTopics: '10' };
    expect((await saveSettings(first, free.cookie, cheap)).status).toBe(404);
    expect((await saveSettings(first, admin.cookie, cheap)).status).toBe(404);
    expect(await storedPlans()).toBeNull();

    const ownerPage = await fetch(`${first.base}/admin/settings`, {
      headers: { Cookie: owner.cookie },
    });
    expect(ownerPage.status).toBe(200);
    const html = await ownerPage.text();
    expect(html).toContain('name="monthlyPrice"');
    expect(html).toContain('value="8"');
  });

  it('refuse a negative price and limits past the product’s maxima, with the reason', async () => {
    for (const [change, message] of [
      [{ monthlyPrice: '-5' }, 'Monthly Plan price must be an amount between 0.01 and 10,000'],
      [{ yearlyPrice: '0' }, 'Yearly Plan price must be an amount between 0.01 and 10,000'],
      [{ freeTopics: '11' }, 'Free Plan topics must be a whole number from 1 to 10'],
      [
        { monthlyPastedChars: '100001' },
        'Monthly Plan pasted characters must be a whole number from 0 to 100,000',
      ],
      [
        { freeTutorQuestions: '0' },
        'Free Plan tutor questions a day must be a whole number from 1 to 1,000',
      ],
      [
        { yearlyLessonsPerTopic: '7' },
        'Yearly Plan lessons per topic must be a whole number from 1 to 6',
      ],
    ] as const) {
      const response = await saveSettings(first, owner.cookie, { ...SETTINGS, ...change });
      expect(response.status).toBe(400);
      // The page again, its message on it (a form without JavaScript).
      expect(await response.text()).toContain(message);
    }
    expect(await storedPlans()).toBeNull();
  });

  it('hold a free member to the topics set, on every web process, without a restart', async () => {
    // Both processes have read the plans (and keep them a moment) before the change.
    for (const web of [first, second]) {
      const refused = await createCourse(web, free.cookie, 6);
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ message: 'For paid members only' });
      expect((await fetch(`${web.base}/pricing`).then((r) => r.text())).includes('$8')).toBe(true);
    }

    const saved = await saveSettings(first, owner.cookie, {
      ...SETTINGS,
      monthlyPrice: '12',
      freeTopics: '6',
      freeTutorQuestions: '3',
    });
    expect(saved.status).toBe(200);
    expect(await saved.text()).toContain('Plans saved');

    // The other process: within its short freshness window, with no restart and no signal.
    const pricing = await until(async () => {
      const html = await fetch(`${second.base}/pricing`).then((r) => r.text());
      return html.includes('$12') ? html : undefined;
    }, 10_000);
    expect(pricing).toContain('Generate 6 Sub-Topics');
    const allowed = await createCourse(second, free.cookie, 6);
    expect(allowed.status).toBe(200);
    // The limit still holds one topic further.
    expect((await createCourse(first, free.cookie, 7)).status).toBe(403);

    const audit = await database()
      .select()
      .from(tables.adminAudit)
      .where(eq(tables.adminAudit.action, 'save-plans'));
    expect(audit).toHaveLength(1);
    expect(audit[0]!.actorEmail).toBe(owner.member.email);
    expect(JSON.parse(audit[0]!.detail)).toMatchObject({
      before: { monthly: { prices: { paypal: { amountCents: 800 } } }, free: { topics: 5 } },
      after: {
        monthly: { prices: { paypal: { amountCents: 1200 } } },
        free: { topics: 6, tutorQuestionsPerDay: 3 },
      },
    });
    const page = await fetch(`${first.base}/admin/settings`, {
      headers: { Cookie: owner.cookie },
    }).then((r) => r.text());
    expect(page).toContain('Free Plan tutor questions a day: 20 → 3');
  });

  it('roll back from their audit entry, on every web process', async () => {
    const [change] = await database()
      .select()
      .from(tables.adminAudit)
      .where(eq(tables.adminAudit.action, 'save-plans'));
    const page = await fetch(`${first.base}/admin/settings`, {
      headers: { Cookie: owner.cookie },
    }).then((r) => r.text());
    expect(page).toContain(
      'Free Plan topics: 5 → 6; Free Plan tutor questions a day: 20 → 3; Monthly Plan price: $8 → $12',
    );

    const rollBack = (cookie: string, auditId: string) =>
      saveSettings(second, cookie, { intent: 'rollback', auditId });
    expect((await rollBack(admin.cookie, String(change!.id))).status).toBe(404);
    const unknown = await rollBack(owner.cookie, '999999');
    expect(unknown.status).toBe(404);
    expect(await unknown.text()).toContain('No such change of the plans');

    const rolledBack = await rollBack(owner.cookie, String(change!.id));
    expect(rolledBack.status).toBe(200);
    expect(await rolledBack.text()).toContain('Plans rolled back');
    await until(async () => {
      const html = await fetch(`${first.base}/pricing`).then((r) => r.text());
      return html.includes('$8') && html.includes('Generate 5 Sub-Topics');
    }, 10_000);
    expect((await createCourse(first, free.cookie, 6)).status).toBe(403);
    const after = await fetch(`${second.base}/admin/settings`, {
      headers: { Cookie: owner.cookie },
    }).then((r) => r.text());
    expect(after).toContain(
      'Rollback: Free Plan topics: 6 → 5; Free Plan tutor questions a day: 3 → 20; Monthly Plan price: $12 → $8',
    );
  });
  it('hold a free member to the lessons per topic and the downloads set, on every web process', async () => {
    const created = await createCourse(first, free.cookie, 1);
    expect(created.status).toBe(200);
    const { courseId } = (await created.json()) as { courseId: string };
    const download = (web: Web, format: 'md' | 'pdf') =>
      fetch(`${web.base}/course/${courseId}/export.${format}`, {
        headers: { Cookie: free.cookie },
      });
    expect((await download(second, 'pdf')).status).toBe(200);
    const page = await fetch(`${first.base}/course/${courseId}`, {
      headers: { Cookie: free.cookie },
    }).then((r) => r.text());
    expect(page).toContain('Download PDF');

    const saved = await saveSettings(first, owner.cookie, {
      ...SETTINGS,
      freeLessonsPerTopic: '1',
      // The form's boxes: Markdown ticked, PDF and SCORM not.
      freeExportsShown: '1',
      'freeExport-md': 'on',
    });
    expect(saved.status).toBe(200);

    const refused = await until(async () => {
      const answer = await download(second, 'pdf');
      return answer.status === 403 ? answer : undefined;
    }, 10_000);
    expect(await refused.text()).toBe('For paid members only');
    expect((await download(second, 'md')).status).toBe(200);
    const without = await fetch(`${second.base}/course/${courseId}`, {
      headers: { Cookie: free.cookie },
    }).then((r) => r.text());
    expect(without).toContain('Download Markdown');
    expect(without).not.toContain('Download PDF');

    // Five topics of two lessons for the AI: ten, past the five lessons (5 topics × 1) allowed.
    const aiCourse = await fetch(`${second.base}/api/course`, {
      method: 'POST',
      headers: { Cookie: free.cookie, Origin: second.base, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        mainTopic: 'Sails',
        type: 'text',
        content: {
          sails: Array.from({ length: 5 }, (_, t) => ({
            title: `Sail ${t + 1}`,
            subtopics: [{ title: `Rigging ${t + 1}` }, { title: `Trimming ${t + 1}` }],
          })),
        },
      }),
    });
    expect(aiCourse.status).toBe(403);
    expect(await aiCourse.json()).toMatchObject({
      message: 'The AI writes at most 5 lessons of a course on your plan',
    });

    const settingsPage = await fetch(`${first.base}/admin/settings`, {
      headers: { Cookie: owner.cookie },
    }).then((r) => r.text());
    expect(settingsPage).toContain('Free Plan lessons per topic: 4 → 1');
    expect(settingsPage).toContain('Free Plan downloads: Markdown, PDF → Markdown');
  });
});

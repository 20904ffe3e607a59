import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { databaseFile, openDatabase } from '../../db/connection';
import { get, post, settle } from '../support/account-routes';
import { createUser } from '~/models/users.server';
import * as addAdmin from '~/routes/api/api.addadmin';
import * as dashboard from '~/routes/api/api.dashboard';
import * as getAdmins from '~/routes/api/api.getadmins';
import * as getContact from '~/routes/api/api.getcontact';
import * as getCourses from '~/routes/api/api.getcourses';
import * as getPaid from '~/routes/api/api.getpaid';
import * as getUsers from '~/routes/api/api.getusers';
import * as removeAdmin from '~/routes/api/api.removeadmin';
import * as saveAdmin from '~/routes/api/api.saveadmin';
import * as termsEditor from '~/routes/admin-policy-editor';
import * as usersPage from '~/routes/admin/users';
import { getPublicPolicy } from '~/models/policies.server';
import { createSession } from '~/utils/auth.server';
import { database, databaseDialect, tables } from '~/utils/database.server';
import { env } from '~/utils/env.server';
import { newId } from '~/utils/ids.server';

/** The admin API and pages: admins only, paged and searched on the server. */
let counter = 0;
async function person(
  role: 'member' | 'admin' | 'main_admin' = 'member',
  plan: 'free' | 'monthly' = 'free',
) {
  counter += 1;
  const user = await createUser({
    email: `person-${counter}@admin.test`,
    name: `Person ${String(counter).padStart(3, '0')}`,
    password: 'long-enough-password',
    role,
    plan,
  });
  return { user, cookie: (await createSession(user.id)).split(';')[0]! };
}

const status = async (result: Promise<unknown>) => ((await settle(result)) as Response).status;
const body = async (result: Promise<unknown>) => ((await settle(result)) as Response).json();

const listRoutes = [getUsers, getPaid, getCourses, getContact, getAdmins];
const actionRoutes = [dashboard, addAdmin, removeAdmin, saveAdmin];

afterAll(() => undefined);

describe('the admin /api routes', () => {
  it('refuse anonymous callers (401) and members (403)', async () => {
    const member = await person();
    for (const route of listRoutes) {
      expect(await status(get(route.loader, '/api/x'))).toBe(401);
      expect(await status(get(route.loader, '/api/x', { cookie: member.cookie }))).toBe(403);
    }
    for (const route of actionRoutes) {
      expect(await status(post(route.action, '/api/x', { email: member.user.email }))).toBe(401);
      expect(
        await status(
          post(route.action, '/api/x', { email: member.user.email }, { cookie: member.cookie }),
        ),
      ).toBe(403);
    }
    expect(
      (await database().select().from(tables.users)).every(
        (row) => row.role !== 'admin' || row.id !== member.user.id,
      ),
    ).toBe(true);
  });

  it('page, search and sort the tables on the server', async () => {
    const admin = await person('admin');
    const owner = await person('member', 'monthly');
    for (let i = 0; i < 12; i += 1) await person();
    await database()
      .insert(tables.courses)
      .values(
        Array.from({ length: 40 }, (_, i) => ({
          id: newId(),
          userId: owner.user.id,
          mainTopic: i % 10 === 0 ? `Quantum ${i}` : `Topic ${i}`,
          type: i % 2 ? ('video' as const) : ('text' as const),
          createdAt: new Date(Date.now() - i * 1000),
        })),
      );
    await database().insert(tables.contacts).values({
      id: newId(),
      firstName: 'Ann',
      lastName: 'Lee',
      email: 'ann@x.test',
      phone: '12345',
      message: 'Hi',
    });

    const firstPage = await body(
      get(getUsers.loader, '/api/getusers?pageSize=10', { cookie: admin.cookie }),
    );
    expect(firstPage).toHaveLength(10);
    expect(firstPage[0]).toEqual({
      _id: expect.any(String),
      email: expect.any(String),
      mName: expect.any(String),
      type: 'free',
    });
    const response = (await settle(
      get(getUsers.loader, '/api/getusers?pageSize=10&page=2', { cookie: admin.cookie }),
    )) as Response;
    expect(Number(response.headers.get('X-Total-Count'))).toBeGreaterThanOrEqual(14);
    const second = (await response.json()) as { _id: string }[];
    expect(second.map((row) => row._id)).not.toContain(firstPage[0]._id);
    // A page size past the documented 100 is refused, naming the parameter (ADR 0057).
    const refused = (await settle(
      get(getUsers.loader, '/api/getusers?pageSize=100000', { cookie: admin.cookie }),
    )) as Response;
    expect(refused.status).toBe(400);
    await expect(refused.json()).resolves.toMatchObject({ param: 'pageSize' });

    const found = await body(
      get(getUsers.loader, `/api/getusers?q=${encodeURIComponent(owner.user.email)}`, {
        cookie: admin.cookie,
      }),
    );
    // The plan's name, as the spec's clients show it.
    expect(found).toEqual([
      expect.objectContaining({ email: owner.user.email, type: 'Monthly Plan' }),
    ]);
    const paid = await body(get(getPaid.loader, '/api/getpaid', { cookie: admin.cookie }));
    expect(paid.map((row: { email: string }) => row.email)).toContain(owner.user.email);
    expect(paid.every((row: { type: string }) => row.type !== 'free')).toBe(true);

    const quantum = await body(
      get(getCourses.loader, '/api/getcourses?q=quantum&sort=title&dir=asc', {
        cookie: admin.cookie,
      }),
    );
    expect(quantum.map((row: { mainTopic: string }) => row.mainTopic)).toEqual([
      'Quantum 0',
      'Quantum 10',
      'Quantum 20',
      'Quantum 30',
    ]);
    const contactsList = await body(
      get(getContact.loader, '/api/getcontact', { cookie: admin.cookie }),
    );
    expect(contactsList[0]).toMatchObject({
      fname: 'Ann',
      lname: 'Lee',
      email: 'ann@x.test',
      phone: '12345',
      msg: 'Hi',
    });
  });

  it('adds and removes admins; never the main admin, never oneself', async () => {
    const main = await person('main_admin');
    const admin = await person('admin');
    const member = await person();
    const added = await body(
      post(
        addAdmin.action,
        '/api/addadmin',
        { email: member.user.email },
        { cookie: admin.cookie },
      ),
    );
    expect(added).toMatchObject({ success: true });
    const listed = await body(get(getAdmins.loader, '/api/getadmins', { cookie: admin.cookie }));
    expect(listed.admins).toContainEqual(
      expect.objectContaining({ email: member.user.email, type: 'no' }),
    );
    expect(listed.admins).toContainEqual(
      expect.objectContaining({ email: main.user.email, type: 'main' }),
    );

    const refusedMain = (await settle(
      post(
        removeAdmin.action,
        '/api/removeadmin',
        { email: main.user.email },
        { cookie: admin.cookie },
      ),
    )) as Response;
    expect(refusedMain.status).toBe(403);
    expect(await refusedMain.json()).toMatchObject({ message: 'The main admin cannot be removed' });
    const refusedSelf = (await settle(
      post(
        removeAdmin.action,
        '/api/removeadmin',
        { email: admin.user.email },
        { cookie: admin.cookie },
      ),
    )) as Response;
    expect(refusedSelf.status).toBe(403);
    const removed = await body(
      post(
        removeAdmin.action,
        '/api/removeadmin',
        { email: member.user.email },
        { cookie: main.cookie },
      ),
    );
    expect(removed).toMatchObject({ success: true, message: 'Admin removed' });
  });

  it('saves policy HTML sanitized, through the API and the editor page', async () => {
    const admin = await person('admin');
    const saved = await body(
      post(
        saveAdmin.action,
        '/api/saveadmin',
        {
          type: 'terms',
          data: '<h2>Terms</h2><script>alert(1)</script><p onclick="x()">Be kind</p>',
        },
        { cookie: admin.cookie },
      ),
    );
    expect(saved).toMatchObject({ success: true });
    expect(await getPublicPolicy('terms')).toContain('Be kind');
    expect(await getPublicPolicy('terms')).not.toMatch(/script|onclick/);
    const dash = await body(post(dashboard.action, '/api/dashboard', {}, { cookie: admin.cookie }));
    expect(dash).toMatchObject({
      users: expect.any(Number),
      sum: 0,
      total: 0,
      admin: { terms: expect.stringContaining('Be kind') },
    });
    expect(dash.admin.terms).not.toContain('<script');

    const page = await settle(
      post(
        termsEditor.action,
        '/editprivacy',
        { html: '<p>Private</p><img src=x onerror=alert(1)>' },
        { cookie: admin.cookie, as: 'form' },
      ),
    );
    expect(page).toMatchObject({ type: 'DataWithResponseInit' });
    expect(await getPublicPolicy('privacy')).toContain('Private');
    expect(await getPublicPolicy('privacy')).not.toContain('onerror');
  });

  const FIRST_PAGES = [
    'select id from users order by created_at desc limit 25',
    "select id from users where plan in ('monthly','yearly') order by created_at desc limit 25",
    'select id from courses order by created_at desc limit 25',
    'select id from contacts order by created_at desc limit 25',
    "select count(*) from lessons where state != 'done'",
  ];
  // Paid members are few: their index finds them and they are sorted in memory.
  const sortsInMemory = (query: string) => query.includes('plan in');

  it.runIf(databaseDialect() === 'sqlite')(
    'uses indexes for the first page of every table (SQLite: EXPLAIN QUERY PLAN)',
    async () => {
      const admin = await person('admin');
      await settle(get(usersPage.loader, '/users', { cookie: admin.cookie }));
      // SQLite's own EXPLAIN, on a second connection to the test's database file.
      const explaining = openDatabase(databaseFile(env().DATA_DIR));
      const plans = FIRST_PAGES.map((query) => ({
        query,
        plan: (
          explaining.$client.prepare(`explain query plan ${query}`).all() as { detail: string }[]
        )
          .map((row) => row.detail)
          .join('; '),
      }));
      explaining.$client.close();
      for (const { query, plan } of plans) {
        expect(plan, query).toMatch(/USING (COVERING )?INDEX/);
        if (!sortsInMemory(query)) expect(plan, query).not.toMatch(/USE TEMP B-TREE FOR ORDER BY/);
      }
    },
  );

  it.runIf(databaseDialect() === 'postgres')(
    'uses indexes for the first page of every table (PostgreSQL: EXPLAIN)',
    async () => {
      const admin = await person('admin');
      await settle(get(usersPage.loader, '/users', { cookie: admin.cookie }));
      // A few rows make any plan cheap, so sequential scans are priced out: a query that still
      // scans the table has no index to serve it.
      const client = new pg.Client({ connectionString: env().DATABASE_URL });
      await client.connect();
      try {
        await client.query('set enable_seqscan = off');
        for (const query of FIRST_PAGES) {
          const { rows } = await client.query<{ 'QUERY PLAN': string }>(`explain ${query}`);
          const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
          expect(plan, query).toMatch(/Index (Only )?Scan|Bitmap Index Scan/);
          expect(plan, query).not.toMatch(/Seq Scan/);
          if (!sortsInMemory(query)) expect(plan, query).not.toMatch(/\bSort\b/);
        }
      } finally {
        await client.end();
      }
    },
  );
});

import { describe, expect, it } from 'vitest';
import { createUser } from '~/models/users.server';
import { loader } from '~/routes/admin/dashboard';
import { createSession } from '~/utils/auth.server';
import { database, tables } from '~/utils/database.server';

async function open(cookieHeader: string | null) {
  const request = new Request('http://localhost/dashboard', {
    headers: cookieHeader ? { Cookie: cookieHeader.split(';')[0]! } : {},
  });
  try {
    return await loader({ request, params: {}, context: {} });
  } catch (thrown) {
    return thrown as Response;
  }
}

describe('the admin dashboard', () => {
  it('counts users by plan and courses by type for admins only', async () => {
    const admin = await createUser({
      email: 'a@x.test',
      name: 'A',
      password: 'password-123',
      role: 'admin',
    });
    const member = await createUser({
      email: 'm@x.test',
      name: 'M',
      password: 'password-123',
      plan: 'monthly',
    });
    await database()
      .insert(tables.courses)
      .values([
        { id: 'c1', userId: member.id, mainTopic: 'Go', type: 'text' },
        { id: 'c2', userId: member.id, mainTopic: 'Rust', type: 'video' },
        { id: 'c3', userId: admin.id, mainTopic: 'Zig', type: 'text' },
      ]);

    await expect(open(await createSession(admin.id))).resolves.toMatchObject({
      users: 2,
      paid: 1,
      free: 1,
      courses: 3,
      textType: 2,
      videoType: 1,
      revenue: [{ currency: 'USD', recurringCents: 0, totalCents: 0 }],
      newMembers: 2,
      newCourses: 3,
    });

    const refused = (await open(await createSession(member.id))) as Response;
    expect(refused.status).toBe(302);
    expect(refused.headers.get('Location')).toBe('/home');
    const visitor = (await open(null)) as Response;
    expect(visitor.headers.get('Location')).toMatch(/^\/signin\?redirectTo=%2Fdashboard/);
  });
});

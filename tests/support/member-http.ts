import { createMember, sessionCookieValue, type AppDatabase } from './members';

/** A signed-in member posting forms and reading JSON as a browser would, timing each post. */
export async function memberClient(app: AppDatabase & { baseURL: string }) {
  const member = await createMember(app);
  const cookie = `__session=${await sessionCookieValue(app, member)}`;
  const headers = { Cookie: cookie, Origin: app.baseURL };
  return {
    member,
    async post(route: string, form: Record<string, string>) {
      const started = performance.now();
      const response = await fetch(`${app.baseURL}${route}`, {
        method: 'POST',
        headers: { ...headers, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(form),
        redirect: 'manual',
      });
      return {
        response,
        ms: performance.now() - started,
        location: response.headers.get('location') ?? '',
      };
    },
    async json(route: string) {
      return (await (await fetch(`${app.baseURL}${route}`, { headers })).json()) as Record<
        string,
        unknown
      >;
    },
  };
}

export type MemberClient = Awaited<ReturnType<typeof memberClient>>;

import { createHmac, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { and, eq, gt, sql } from 'drizzle-orm';
import { courseRecordPage, DEFAULT_COURSE_PAGE } from '~/services/course-list.server';
import { preparedQuery } from '~/utils/database.server';
import { hashToken } from '~/utils/ids.server';

/**
 * The yardstick of bench/api-courses.ts: GET /api/courses as a bare `node:http` handler that
 * reads through the app's own data layer (the same drizzle models and SQL, the same service
 * building each record with its content) and nothing else of the app: no Express, no Remix, no
 * response policy, no compression, no logging. It checks the signed session cookie by hand
 * (synchronous HMAC, as cookie-signature does), looks the session up with the app's query, and
 * answers the same bytes as the app (the benchmark checks). What the app spends beyond it is the
 * cost of its request path. Run as its own process, with the app's environment:
 * `DATA_DIR=... PORT=... tsx bench/lib/bare-courses-models.ts`.
 */
const dataDir = process.env.DATA_DIR!;
const secret = fs.readFileSync(path.join(dataDir, 'session-secret'), 'utf8').trim();

// The same query as app/utils/auth.server.ts's session read.
const sessionUser = preparedQuery((db, { sessions, users }) =>
  db
    .select({ user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.id, sql.placeholder('id')),
        gt(sessions.expiresAt, sql`${sql.param(sql.placeholder('now'), sessions.expiresAt)}`),
      ),
    )
    .prepare(),
);

/** The session token of a signed `__session` cookie (Remix's node cookie format), or null. */
function token(cookieHeader: string | undefined): string | null {
  const raw = /(?:^|;\s*)__session=([^;]*)/.exec(cookieHeader ?? '')?.[1];
  if (!raw) return null;
  const signed = decodeURIComponent(raw);
  const dot = signed.lastIndexOf('.');
  if (dot < 0) return null;
  const unsigned = signed.slice(0, dot);
  const mac = createHmac('sha256', secret).update(unsigned).digest('base64').replace(/=+$/, '');
  const given = Buffer.from(signed.slice(dot + 1));
  if (given.length !== mac.length || !timingSafeEqual(given, Buffer.from(mac))) return null;
  const value: unknown = JSON.parse(Buffer.from(unsigned, 'base64').toString('utf8'));
  return typeof value === 'string' ? value : null;
}

async function answer(req: http.IncomingMessage, res: http.ServerResponse) {
  const sessionToken = token(req.headers.cookie);
  const [row] = sessionToken
    ? await sessionUser().execute({ id: hashToken(sessionToken), now: new Date() })
    : [];
  if (!row) {
    res.writeHead(401, { 'Content-Type': 'application/json' });
    res.end('{"success":false,"message":"Please sign in"}');
    return;
  }
  const page = await courseRecordPage(row.user.id, { limit: DEFAULT_COURSE_PAGE, after: null });
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(page.records));
}

const server = http.createServer((req, res) => {
  answer(req, res).catch((error: unknown) => {
    console.error(error);
    res.destroy();
  });
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('bare ready'));

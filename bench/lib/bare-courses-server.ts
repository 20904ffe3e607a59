import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';

/**
 * The yardstick of bench/api-throughput.ts: GET /api/courses as a bare `node:http` +
 * better-sqlite3 handler with nothing around it. It checks the same signed cookie, looks up
 * the same session and user, and answers the same JSON bytes, from the same SQLite file.
 * Run as its own process: `DATA_DIR=... PORT=... tsx bench/lib/bare-courses-server.ts`.
 */
const dataDir = process.env.DATA_DIR!;
const secret = fs.readFileSync(path.join(dataDir, 'session-secret'), 'utf8').trim();
const sqlite = new Database(path.join(dataDir, 'coursegen.sqlite'), { readonly: true });
sqlite.pragma('busy_timeout = 5000');

const sessionUser = sqlite.prepare(
  `select users.* from sessions join users on users.id = sessions.user_id
   where sessions.id = ? and sessions.expires_at > ?`,
);
const courseList = sqlite.prepare(
  `select c.id, c.main_topic, c.type, c.photo_url, c.created_at, cc.completed_at, c.language
   from courses c left join course_completions cc on cc.course_id = c.id
   where c.user_id = ? order by c.created_at desc, c.id desc limit ?`,
);

interface Row {
  id: string;
  main_topic: string;
  type: string;
  photo_url: string | null;
  created_at: number;
  completed_at: number | null;
  language: string;
}

function token(cookieHeader: string | undefined): string | null {
  const raw = /(?:^|;\s*)__session=([^;]*)/.exec(cookieHeader ?? '')?.[1];
  if (!raw) return null;
  // Remix's node cookies: `value.HMAC-SHA256(value)` in base64 without padding (cookie-signature).
  const signed = decodeURIComponent(raw);
  const dot = signed.lastIndexOf('.');
  const unsigned = signed.slice(0, dot);
  const mac = createHmac('sha256', secret).update(unsigned).digest('base64').replace(/=+$/, '');
  const given = Buffer.from(signed.slice(dot + 1));
  if (dot < 0 || given.length !== mac.length || !timingSafeEqual(given, Buffer.from(mac)))
    return null;
  const value: unknown = JSON.parse(Buffer.from(unsigned, 'base64').toString('utf8'));
  return typeof value === 'string' ? value : null;
}

const server = http.createServer((req, res) => {
  const sessionToken = token(req.headers.cookie);
  const user = sessionToken
    ? (sessionUser.get(createHash('sha256').update(sessionToken).digest('hex'), Date.now()) as
        { id: string } | undefined)
    : undefined;
  if (!user) {
    res.writeHead(401, { 'Content-Type': 'application/json' });
    res.end('{"success":false,"message":"Please sign in"}');
    return;
  }
  const rows = courseList.all(user.id, 51) as Row[];
  const body = JSON.stringify(
    rows.slice(0, 50).map((row) => ({
      _id: row.id,
      user: user.id,
      mainTopic: row.main_topic,
      type: row.type,
      photo: row.photo_url ?? '',
      date: new Date(row.created_at).toISOString(),
      completed: row.completed_at !== null,
      end: row.completed_at !== null ? new Date(row.completed_at).toISOString() : null,
      language: row.language,
    })),
  );
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(body);
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('bare ready'));

import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import Database from 'better-sqlite3';

/**
 * The yardstick of bench/api-throughput.ts: GET /api/courses as a bare `node:http` +
 * better-sqlite3 handler with nothing around it. It checks the same signed cookie, looks up
 * the same session and user, and answers the same JSON bytes (each course with its content, as
 * the spec's course record has it), from the same SQLite file.
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
// The page's content: its topics and lessons in two reads, the ids as one JSON array.
const pageTopics = sqlite.prepare(
  `select id, course_id, title from topics
   where course_id in (select value from json_each(?)) order by course_id, position`,
);
const pageLessons = sqlite.prepare(
  `select topic_id, title, theory, youtube_id, image_url, done from lessons
   where course_id in (select value from json_each(?)) order by course_id, ordinal`,
);

interface TopicRow {
  id: number;
  course_id: string;
  title: string;
}
interface LessonRow {
  topic_id: number;
  title: string;
  theory: string | null;
  youtube_id: string | null;
  image_url: string | null;
  done: number;
}

/** Each course's content as the API's JSON text (topics -> subtopics), by course id. */
function contents(rows: Row[]): Map<string, string> {
  const ids = JSON.stringify(rows.map((row) => row.id));
  const byTopic = new Map<number, object[]>();
  for (const lesson of pageLessons.all(ids) as LessonRow[]) {
    const list = byTopic.get(lesson.topic_id) ?? [];
    list.push({
      title: lesson.title,
      theory: lesson.theory ?? '',
      youtube: lesson.youtube_id ?? '',
      image: lesson.image_url ?? '',
      done: lesson.done === 1,
    });
    byTopic.set(lesson.topic_id, list);
  }
  const byCourse = new Map<string, object[]>();
  for (const topic of pageTopics.all(ids) as TopicRow[]) {
    const list = byCourse.get(topic.course_id) ?? [];
    list.push({ title: topic.title, subtopics: byTopic.get(topic.id) ?? [] });
    byCourse.set(topic.course_id, list);
  }
  return new Map(
    rows.map((row) => [
      row.id,
      JSON.stringify({ [row.main_topic.toLowerCase()]: byCourse.get(row.id) ?? [] }),
    ]),
  );
}

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
  const rows = (courseList.all(user.id, 101) as Row[]).slice(0, 100);
  const content = contents(rows);
  const body = JSON.stringify(
    rows.map((row) => ({
      _id: row.id,
      user: user.id,
      mainTopic: row.main_topic,
      type: row.type,
      photo: row.photo_url ?? '',
      date: new Date(row.created_at).toISOString(),
      completed: row.completed_at !== null,
      end: row.completed_at !== null ? new Date(row.completed_at).toISOString() : null,
      language: row.language,
      content: content.get(row.id),
    })),
  );
  res.writeHead(200, { 'Content-Type': 'application/json' });
  res.end(body);
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('bare ready'));

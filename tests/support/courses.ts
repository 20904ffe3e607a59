import { randomBytes } from 'node:crypto';
import path from 'node:path';
import zlib from 'node:zlib';
import Database from 'better-sqlite3';

/**
 * Courses written straight into a running app's SQLite file, for tests that
 * need finished courses without running the generation pipeline.
 */

function open(dataDir: string) {
  const db = new Database(path.join(dataDir, 'coursegen.sqlite'));
  db.pragma('busy_timeout = 5000');
  db.pragma('foreign_keys = ON');
  return db;
}

function withDb<T>(dataDir: string, work: (db: Database.Database) => T): T {
  const db = open(dataDir);
  try {
    return work(db);
  } finally {
    db.close();
  }
}

/**
 * A course with `lessons` lessons spread over topics of two, all done or only
 * the first one done. Returns the course id.
 */
export function insertCourse(
  dataDir: string,
  userId: string,
  input: { mainTopic: string; lessons: number; allDone: boolean; type?: 'text' | 'video' },
): string {
  const courseId = randomBytes(16).toString('base64url');
  withDb(dataDir, (db) =>
    db.transaction(() => {
      db.prepare('insert into courses (id, user_id, main_topic, type) values (?, ?, ?, ?)').run(
        courseId,
        userId,
        input.mainTopic,
        input.type ?? 'text',
      );
      const addTopic = db.prepare(
        'insert into topics (course_id, position, title) values (?, ?, ?) returning id',
      );
      const addLesson = db.prepare(
        `insert into lessons (course_id, topic_id, position, title, theory, done, state)
         values (?, ?, ?, ?, ?, ?, 'done')`,
      );
      let topicId = 0;
      for (let i = 0; i < input.lessons; i += 1) {
        if (i % 2 === 0) {
          const row = addTopic.get(courseId, i / 2, `Topic ${i / 2 + 1}`) as { id: number };
          topicId = row.id;
        }
        const done = input.allDone || i === 0 ? 1 : 0;
        addLesson.run(courseId, topicId, i % 2, `Lesson ${i + 1}`, `<p>Lesson ${i + 1}</p>`, done);
      }
    })(),
  );
  return courseId;
}

/** Marks every lesson of a course done, as studying it to the end would. */

export function readCompletion(dataDir: string, courseId: string) {
  const row = withDb(dataDir, (db) =>
    db
      .prepare(
        'select certificate_id, member_name, course_title, completed_at, emailed_at from course_completions where course_id = ?',
      )
      .get(courseId),
  ) as
    | {
        certificate_id: string;
        member_name: string;
        course_title: string;
        completed_at: number;
        emailed_at: number | null;
      }
    | undefined;
  return row
    ? {
        certificateId: row.certificate_id,
        memberName: row.member_name,
        courseTitle: row.course_title,
        completedAt: new Date(row.completed_at),
        emailedAt: row.emailed_at === null ? null : new Date(row.emailed_at),
      }
    : undefined;
}

const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 4: 2, 6: 4 };

/**
 * Reads a PNG the way a viewer would: signature, every chunk's CRC, the
 * header, and the compressed pixels inflating to exactly the rows the header
 * promises. Returns its size; throws saying what is wrong otherwise.
 */
export function decodePngSize(bytes: Buffer): { width: number; height: number } {
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (!bytes.subarray(0, 8).equals(signature)) throw new Error('not a PNG signature');
  let offset = 8;
  let header: { width: number; height: number; depth: number; colour: number } | undefined;
  const data: Buffer[] = [];
  let ended = false;
  while (offset + 12 <= bytes.length && !ended) {
    const length = bytes.readUInt32BE(offset);
    const type = bytes.subarray(offset + 4, offset + 8).toString('latin1');
    const body = bytes.subarray(offset + 8, offset + 8 + length);
    const crc = bytes.readUInt32BE(offset + 8 + length);
    if (zlib.crc32(bytes.subarray(offset + 4, offset + 8 + length)) !== crc)
      throw new Error(`bad CRC in ${type}`);
    if (type === 'IHDR')
      header = {
        width: body.readUInt32BE(0),
        height: body.readUInt32BE(4),
        depth: body[8]!,
        colour: body[9]!,
      };
    if (type === 'IDAT') data.push(body);
    if (type === 'IEND') ended = true;
    offset += 12 + length;
  }
  if (!header || !ended) throw new Error('missing IHDR or IEND');
  const channels = CHANNELS[header.colour];
  if (header.depth !== 8 || !channels) throw new Error('unexpected PNG format');
  const pixels = zlib.inflateSync(Buffer.concat(data));
  if (pixels.length !== header.height * (1 + header.width * channels))
    throw new Error('pixel data does not match the header');
  return { width: header.width, height: header.height };
}

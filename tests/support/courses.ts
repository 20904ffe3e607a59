import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import { eq } from 'drizzle-orm';
import { first } from '~/utils/database.server';
import { appDataLayer, type DatabaseTarget } from './app-database';

export { THIS_PROCESS } from './app-database';

/**
 * Courses written straight into an app's database (a running app's SQLite file or PostgreSQL
 * database, or this process's own), for tests that need finished courses without running the
 * generation pipeline.
 */

/**
 * A course with `lessons` lessons spread over topics of two, all done or only
 * the first one done. Returns the course id.
 */
export async function insertCourse(
  target: DatabaseTarget,
  userId: string,
  input: { mainTopic: string; lessons: number; allDone: boolean; type?: 'text' | 'video' },
): Promise<string> {
  const courseId = randomBytes(16).toString('base64url');
  const layer = appDataLayer(target);
  const { courses, topics, lessons } = layer.tables;
  await layer.transaction(async (tx) => {
    await tx
      .insert(courses)
      .values({ id: courseId, userId, mainTopic: input.mainTopic, type: input.type ?? 'text' });
    let topicId = 0;
    for (let i = 0; i < input.lessons; i += 1) {
      if (i % 2 === 0) {
        const [row] = await tx
          .insert(topics)
          .values({ courseId, position: i / 2, title: `Topic ${i / 2 + 1}` })
          .returning({ id: topics.id });
        topicId = row!.id;
      }
      await tx.insert(lessons).values({
        courseId,
        topicId,
        position: i % 2,
        // Its place in the course, as the app numbers a course's lessons.
        ordinal: i,
        title: `Lesson ${i + 1}`,
        theory: `<p>Lesson ${i + 1}</p>`,
        done: input.allDone || i === 0,
        state: 'done',
      });
    }
  });
  return courseId;
}

/** The completion recorded for a course (its certificate), if any. */
export async function readCompletion(target: DatabaseTarget, courseId: string) {
  const layer = appDataLayer(target);
  const { courseCompletions } = layer.tables;
  return first(
    layer
      .database()
      .select({
        certificateId: courseCompletions.certificateId,
        memberName: courseCompletions.memberName,
        courseTitle: courseCompletions.courseTitle,
        completedAt: courseCompletions.completedAt,
        emailedAt: courseCompletions.emailedAt,
      })
      .from(courseCompletions)
      .where(eq(courseCompletions.courseId, courseId)),
  );
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

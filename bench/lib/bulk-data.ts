import { randomBytes } from 'node:crypto';

/**
 * One set of generated rows for a big install (members, courses, and topics and lessons for some
 * of the courses), written as they are to SQLite and to PostgreSQL by `bench/lib/bench-database.ts`
 * so that both databases hold the same data. Timestamps are milliseconds here; each writer turns
 * them into its database's type (SQLite's integers, PostgreSQL's timestamptz).
 */
export interface UserRow {
  id: string;
  email: string;
  name: string;
  plan: 'free' | 'monthly';
  role: 'member' | 'admin';
  createdAt: number;
}

interface CourseRow {
  id: string;
  userId: string;
  mainTopic: string;
  type: 'text' | 'video';
  createdAt: number;
}

interface TopicRow {
  id: number;
  courseId: string;
  position: number;
  title: string;
}

interface LessonRow {
  id: number;
  courseId: string;
  topicId: number;
  position: number;
  ordinal: number;
  title: string;
  theory: string;
  generatedAt: number;
}

export interface BulkData {
  users: UserRow[];
  courses: CourseRow[];
  topics: TopicRow[];
  lessons: LessonRow[];
  /** Member 0: an admin (the dashboard). */
  adminId: string;
  /** Member 1: owns `homeCourses` courses, the newest of the install (its `/home`). */
  homeMemberId: string;
  /** The home member's newest course, its lessons written (the course view). */
  viewedCourseId: string;
}

export interface BulkShape {
  members: number;
  courses: number;
  /** Courses of the home member (more than a page of `/home`, 24). */
  homeCourses: number;
  /** The first (newest) courses get topics x lessons, written and done. */
  writtenCourses: number;
  topicsPerCourse: number;
  lessonsPerTopic: number;
}

/** Above anything the app's own seed or a test would number, so the two never collide. */
const FIRST_TOPIC_ID = 1_000_001;
const FIRST_LESSON_ID = 1_000_001;

const newId = () => randomBytes(12).toString('base64url');

/** About 1.5 KB of sanitized lesson HTML, as a written lesson stores. */
const THEORY = [
  '<h2>Why it matters</h2>',
  ...Array.from(
    { length: 6 },
    (_, i) =>
      `<p>Paragraph ${i + 1}: a lesson explains one idea at a time, with an example the reader can try, ` +
      `a short note on what usually goes wrong, and how to tell that it went right. ` +
      `It ends with a question to think about before the next lesson.</p>`,
  ),
  '<ul><li>First point</li><li>Second point</li><li>Third point</li></ul>',
].join('');

export function generateBulkData(shape: BulkShape, now = Date.now()): BulkData {
  const users: UserRow[] = [];
  for (let i = 0; i < shape.members; i += 1)
    users.push({
      id: newId(),
      email: `member${i}@bench.test`,
      name: `Member ${i}`,
      // One in ten pays; the home member too (its pages then read flashcards and quizzes).
      plan: i % 10 === 0 || i === 1 ? 'monthly' : 'free',
      role: i === 0 ? 'admin' : 'member',
      createdAt: now - i * 60_000,
    });
  const owner = (i: number) =>
    i < shape.homeCourses ? users[1]!.id : users[2 + (i % (shape.members - 2))]!.id;
  const courses: CourseRow[] = [];
  const topics: TopicRow[] = [];
  const lessons: LessonRow[] = [];
  for (let i = 0; i < shape.courses; i += 1) {
    const course: CourseRow = {
      id: newId(),
      userId: owner(i),
      mainTopic: `Course ${i}`,
      // The home member's courses are text courses (a video course's lessons embed videos).
      type: i < shape.homeCourses || i % 3 ? 'text' : 'video',
      createdAt: now - i * 6_000,
    };
    courses.push(course);
    if (i >= shape.writtenCourses) continue;
    for (let t = 0; t < shape.topicsPerCourse; t += 1) {
      const topicId = FIRST_TOPIC_ID + topics.length;
      topics.push({ id: topicId, courseId: course.id, position: t, title: `Topic ${t + 1}` });
      for (let l = 0; l < shape.lessonsPerTopic; l += 1)
        lessons.push({
          id: FIRST_LESSON_ID + lessons.length,
          courseId: course.id,
          topicId,
          position: l,
          ordinal: t * shape.lessonsPerTopic + l,
          title: `Lesson ${t + 1}.${l + 1}`,
          theory: THEORY,
          generatedAt: course.createdAt,
        });
    }
  }
  return {
    users,
    courses,
    topics,
    lessons,
    adminId: users[0]!.id,
    homeMemberId: users[1]!.id,
    viewedCourseId: courses[0]!.id,
  };
}

/** Members with nothing yet (the burst's): `count` rows, created now. */
export function burstMembers(count: number, label: string, now = Date.now()): UserRow[] {
  return Array.from({ length: count }, (_, i) => ({
    id: newId(),
    email: `${label}-${i}-${randomBytes(3).toString('hex')}@bench.test`,
    name: `Burst Member ${i}`,
    plan: 'free',
    role: 'member',
    createdAt: now,
  }));
}

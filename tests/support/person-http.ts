import { randomBytes } from 'node:crypto';
import { until } from './processes';

/**
 * A person using a running CourseGen over plain HTTP, through the forms the pages post and the
 * resources their scripts poll: signing up, creating a course, generating it and reading its
 * first written lesson. Each step takes the address it goes to, so one member can walk across
 * several web nodes.
 */
export interface Person {
  email: string;
  /** `__session=…`, as the browser sends it back. */
  cookie: string;
}

async function postForm(baseURL: string, route: string, form: Record<string, string>, cookie = '') {
  const response = await fetch(`${baseURL}${route}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Origin: baseURL,
      ...(cookie ? { Cookie: cookie } : {}),
    },
    body: new URLSearchParams(form),
    redirect: 'manual',
  });
  const location = response.headers.get('location') ?? '';
  if (response.status !== 302 && response.status !== 303)
    throw new Error(`POST ${route} answered ${response.status}: ${await response.text()}`);
  return { response, location };
}

async function getJson<T>(baseURL: string, route: string, person: Person): Promise<T> {
  const response = await fetch(`${baseURL}${route}`, { headers: { Cookie: person.cookie } });
  if (!response.ok) throw new Error(`GET ${route} answered ${response.status}`);
  return (await response.json()) as T;
}

/** /signup, as its form posts it: lands on /home with a session. */
export async function signUp(baseURL: string): Promise<Person> {
  const email = `newcomer-${randomBytes(4).toString('hex')}@example.com`;
  const { response, location } = await postForm(baseURL, '/signup', {
    mName: 'New Comer',
    email,
    password: 'correct-horse-battery',
  });
  const session = response.headers.getSetCookie().find((cookie) => cookie.startsWith('__session='));
  if (!session) throw new Error(`/signup set no session (to ${location})`);
  return { email, cookie: session.split(';')[0]! };
}

/** /create with a topic and one sub-topic: the outline's page, once its outline is written. */
export async function createCourse(baseURL: string, person: Person, topic = 'Sailing') {
  const { location } = await postForm(
    baseURL,
    '/create',
    { topic, subtopic: 'Knots', topicCount: '5', type: 'text' },
    person.cookie,
  );
  const outlineId = /\/topics\/([^/?#]+)/.exec(location)?.[1];
  if (!outlineId) throw new Error(`/create went to ${location}`);
  // What /topics polls while the outline is written.
  await until(
    async () =>
      (await getJson<{ outline: { state: string } }>(baseURL, `/api/outline/${outlineId}`, person))
        .outline.state === 'done',
    90_000,
    250,
  );
  return outlineId;
}

/** Generate on /topics: the course's page. */
export async function generateCourse(baseURL: string, person: Person, outlineId: string) {
  const { location } = await postForm(baseURL, `/topics/${outlineId}`, {}, person.cookie);
  const courseId = /\/course\/([^/?#]+)/.exec(location)?.[1];
  if (!courseId) throw new Error(`Generate went to ${location}`);
  return courseId;
}

/**
 * Waits (as the course page does, on its status resource) for a written lesson, then opens it
 * on the course page: the lesson's text as the page shows it.
 */
export async function firstWrittenLesson(baseURL: string, person: Person, courseId: string) {
  const lessonId = await until(
    async () => {
      const status = await getJson<{ lessons: { id: number; state: string }[] }>(
        baseURL,
        `/status/course/${courseId}`,
        person,
      );
      return status.lessons.find((lesson) => lesson.state === 'done')?.id;
    },
    120_000,
    250,
  );
  return lessonText(baseURL, person, courseId, lessonId);
}

/** The text of a lesson on its course page (`data-testid="lesson-theory"`). */
export async function lessonText(
  baseURL: string,
  person: Person,
  courseId: string,
  lessonId: number,
) {
  const page = await fetch(`${baseURL}/course/${courseId}?lesson=${lessonId}`, {
    headers: { Cookie: person.cookie },
  });
  if (page.status !== 200) throw new Error(`/course/${courseId} answered ${page.status}`);
  const html = await page.text();
  const theory = /data-testid="lesson-theory"[^>]*>([\s\S]*?)<\/div>/.exec(html)?.[1] ?? '';
  return {
    lessonId,
    text: theory
      .replace(/<[^>]+>/g, ' ')
      .replace(/\s+/g, ' ')
      .trim(),
  };
}

/**
 * What an upgrade fixture holds (scripts/make-upgrade-fixture.ts, ADR 0050): the life of a small
 * install, made through a released build's own pages and API as members, an admin and a visitor
 * make it, over HTTP only, so it needs nothing of the code it runs against but its routes. The
 * app must run in demo mode: the AI, PayPal and Razorpay are its simulations.
 */

export interface StoryAccount {
  name: string;
  email: string;
  password: string;
}

interface StoryMember extends StoryAccount {
  plan: 'free' | 'monthly' | 'yearly';
  /** The member's courses, in the order they were made. */
  courseIds: string[];
}

export interface Story {
  admin: StoryAccount;
  members: StoryMember[];
}

/** Every member's password: what the upgrade test signs in with. */
const PASSWORD_OF = (first: string) => `${first.toLowerCase()}-fixture-password`;
const WAIT_MS = 120_000;

/** A browser of one person: keeps its cookies, sends the site's own Origin. */
class Visitor {
  private readonly cookies = new Map<string, string>();

  constructor(private readonly base: string) {}

  async send(
    method: 'GET' | 'POST',
    path: string,
    body: { json?: unknown; form?: Record<string, string>; multipart?: FormData } = {},
  ): Promise<Response> {
    const headers: Record<string, string> = { Origin: this.base };
    if (this.cookies.size > 0)
      headers.Cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    let payload: string | URLSearchParams | FormData | undefined;
    if (body.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      payload = JSON.stringify(body.json);
    } else if (body.form) {
      payload = new URLSearchParams(body.form);
    } else {
      payload = body.multipart;
    }
    const response = await fetch(new URL(path, this.base), {
      method,
      headers,
      body: payload,
      redirect: 'manual',
    });
    for (const cookie of response.headers.getSetCookie()) {
      const pair = cookie.split(';')[0]!;
      const equals = pair.indexOf('=');
      this.cookies.set(pair.slice(0, equals), pair.slice(equals + 1));
    }
    return response;
  }

  /** The answer, which must have `status` (else an error with its body). */
  async expect(
    status: number,
    method: 'GET' | 'POST',
    path: string,
    body?: Parameters<Visitor['send']>[2],
  ): Promise<Response> {
    const response = await this.send(method, path, body);
    if (response.status !== status) {
      const text = await response.text();
      // A page's message is in its alert; JSON's is the body.
      const said = /role="alert"[^>]*>([^<]*)/.exec(text)?.[1] ?? text.slice(0, 500);
      throw new Error(`${method} ${path}: ${response.status}, not ${status}: ${said}`);
    }
    return response;
  }

  async json<T>(method: 'GET' | 'POST', path: string, body?: Parameters<Visitor['send']>[2]) {
    return (await (await this.expect(200, method, path, body)).json()) as T;
  }

  async page(path: string): Promise<string> {
    return (await this.expect(200, 'GET', path)).text();
  }
}

async function until<T>(what: string, probe: () => Promise<T | undefined | false>): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const location = (response: Response) => response.headers.get('location') ?? '';

async function signUp(base: string, name: string, email: string): Promise<[Visitor, StoryMember]> {
  const visitor = new Visitor(base);
  const password = PASSWORD_OF(name.split(' ')[0]!);
  await visitor.json('POST', '/api/signup', {
    json: { email, mName: name, password, type: 'free' },
  });
  return [visitor, { name, email, password, plan: 'free', courseIds: [] }];
}

/** Every lesson of the course written (and its pictures found). */
async function lessonsWritten(member: Visitor, courseId: string) {
  await until(`the lessons of ${courseId}`, async () => {
    const status = await member.json<{ ready: number; total: number; generating: boolean }>(
      'GET',
      `/status/course/${courseId}`,
    );
    return status.total > 0 && status.ready === status.total && !status.generating;
  });
}

/** A course the way the site makes one: /create's outline, then Generate on /topics. */
async function courseFromOutline(
  member: Visitor,
  fields: { topic: string; subtopic?: string; pasted?: string },
): Promise<string> {
  const form = new FormData();
  form.append('topic', fields.topic);
  form.append('subtopic', fields.subtopic ?? '');
  form.append('topicCount', '5');
  form.append('type', 'text');
  if (fields.pasted) form.append('pasted', fields.pasted);
  const outlineId = location(await member.expect(302, 'POST', '/create', { multipart: form }))
    .split('/topics/')
    .pop()!;
  await until(`the outline ${outlineId}`, async () => {
    const outline = await member.json<{ state: string }>('GET', `/status/outline/${outlineId}`);
    if (outline.state === 'failed') throw new Error(`The outline ${outlineId} failed`);
    return outline.state === 'done';
  });
  const generated = await member.expect(302, 'POST', `/topics/${outlineId}`, {
    form: { intent: 'generate' },
  });
  const courseId = location(generated).split('/course/').pop()!;
  await lessonsWritten(member, courseId);
  return courseId;
}

/** A course the way an API client makes one: its lessons' text sent, one left for the AI. */
async function courseFromApi(member: Visitor, mainTopic: string): Promise<string> {
  const { courseId } = await member.json<{ courseId: string }>('POST', '/api/course', {
    json: {
      mainTopic,
      type: 'text',
      content: {
        [mainTopic.toLowerCase()]: [
          {
            title: `${mainTopic} basics`,
            subtopics: [
              { title: 'Where it began', theory: `<p>How ${mainTopic} began.</p>` },
              { title: 'The main ideas' },
            ],
          },
        ],
      },
    },
  });
  await lessonsWritten(member, courseId);
  return courseId;
}

async function lessonIds(member: Visitor, courseId: string): Promise<string[]> {
  const page = await member.page(`/course/${courseId}`);
  return [...new Set([...page.matchAll(/name="lessonId" value="(\d+)"/g)].map(([, id]) => id!))];
}

/** Opens the course's lessons (each is then done, and its cards come up for review). */
async function study(member: Visitor, courseId: string, lessons: string[]) {
  for (const lessonId of lessons)
    await member.expect(302, 'POST', `/course/${courseId}`, {
      form: { intent: 'open', lessonId },
    });
}

/** Takes the course's first topic quiz once it is written, answering the first option throughout. */
async function takeQuiz(member: Visitor, courseId: string) {
  const quizPath = await until(`a quiz of ${courseId}`, async () => {
    const page = await member.page(`/course/${courseId}`);
    return new RegExp(`href="(/quiz/${courseId}/\\d+)"`).exec(page)?.[1];
  });
  const questions = await until(`the questions of ${quizPath}`, async () => {
    const page = await member.page(quizPath);
    const names = new Set([...page.matchAll(/name="(q\d+)"/g)].map(([, name]) => name!));
    return names.size > 0 && [...names];
  });
  const marked = await member.expect(200, 'POST', quizPath, {
    form: Object.fromEntries(questions.map((name) => [name, '0'])),
  });
  if (!(await marked.text()).includes('You scored'))
    throw new Error(`${quizPath}: the attempt was not marked`);
}

/** Grades the first card due (once the decks of the studied lessons are written). */
async function reviewACard(member: Visitor) {
  const card = await until('a card due', async () => {
    const page = await member.page('/review');
    const cardId = /name="cardId" value="(\d+)"/.exec(page)?.[1];
    const reps = /name="reps" value="(\d+)"/.exec(page)?.[1];
    return cardId && reps ? { cardId, reps } : undefined;
  });
  await member.expect(200, 'POST', '/review', { form: { ...card, rating: '3' } });
}

/** Asks the lesson's tutor and reads the answer to its end. */
async function askTutor(member: Visitor, lessonId: string, question: string) {
  const answer = await member.expect(200, 'POST', `/tutor/${lessonId}`, { json: { question } });
  const events = await answer.text();
  if (!events.includes('event: done')) throw new Error(`The tutor did not answer: ${events}`);
}

async function regenerate(member: Visitor, lessonId: string) {
  await member.expect(202, 'POST', `/regenerate/${lessonId}`, {
    json: { intent: 'regenerate', instruction: 'simpler' },
  });
  await until(`the regeneration of lesson ${lessonId}`, async () => {
    const status = await member.json<{ state: string }>('GET', `/regenerate/${lessonId}`);
    return status.state !== 'running' && status;
  });
}

const CUSTOMER = { post: '10115', address: '1 Analytical Street', country: 'DE' };

/** PayPal: the checkout, approval on the simulated approval page, the return to /success. */
async function payWithPayPal(member: Visitor, who: StoryMember, planId: string) {
  const [given, family] = who.name.split(' ');
  const created = await member.json<{ links: { rel: string; href: string }[] }>(
    'POST',
    '/api/paypal',
    { json: { planId, email: who.email, name: given, lastName: family, ...CUSTOMER } },
  );
  const approve = new URL(created.links.find((link) => link.rel === 'approve')!.href);
  const approved = await member.expect(302, 'POST', approve.pathname + approve.search);
  const back = new URL(location(approved));
  await member.expect(200, 'GET', back.pathname + back.search);
}

/** Razorpay: the subscription, its simulated payment link paid, then Verify Payment. */
async function payWithRazorpay(member: Visitor, who: StoryMember, plan: string) {
  const created = await member.json<{ id: string; short_url: string }>(
    'POST',
    '/api/razorpaycreate',
    { json: { plan, email: who.email, fullAddress: `${who.name}, 1 Harbour Road, 560001 IN` } },
  );
  const link = new URL(created.short_url);
  await member.expect(200, 'POST', link.pathname);
  await member.json('POST', '/api/razorapydetails', {
    json: { subscriberId: created.id, plan },
  });
}

/** Waits until the provider's word (its webhook, the return page) has made the member paid. */
async function paid(member: Visitor, who: StoryMember, plan: 'monthly' | 'yearly') {
  await until(`${who.email} to be paid`, async () => {
    const answer = await member.send('POST', '/api/subscriptiondetail', { json: {} });
    return answer.ok && ((await answer.json()) as { status: string }).status === 'active';
  });
  who.plan = plan;
}

/**
 * The install's life: an admin, four members (free; monthly through PayPal; yearly through
 * Razorpay; one who cancelled), their courses (from an outline, from pasted material, from the
 * API), studied lessons, reviewed cards, quiz attempts, notes, a tutor conversation, a regenerated
 * lesson, a finished course with its certificate, a shared course, API tokens, pending password
 * reset and email change links, an admin's policy edit and a visitor's contact message.
 */
export async function tellStory(base: string, admin: StoryAccount): Promise<Story> {
  const members: StoryMember[] = [];

  const [ada, adaAccount] = await signUp(base, 'Ada Lovelace', 'ada@fixture.example');
  members.push(adaAccount);
  const astronomy = await courseFromOutline(ada, { topic: 'Astronomy', subtopic: 'Planets' });
  adaAccount.courseIds.push(astronomy);
  const adaLessons = await lessonIds(ada, astronomy);
  await study(ada, astronomy, adaLessons.slice(0, 2));
  await reviewACard(ada);
  await takeQuiz(ada, astronomy);
  await ada.expect(200, 'POST', `/notes/${adaLessons[0]}`, {
    json: { body: 'Mercury is the *closest* planet.' },
  });
  await askTutor(ada, adaLessons[0]!, 'Why is Venus hotter than Mercury?');
  await regenerate(ada, adaLessons[1]!);
  await ada.expect(200, 'POST', '/profile', {
    form: { intent: 'create-token', tokenName: 'Ada’s notebook' },
  });
  // A new address waits for its confirmation link: the account keeps the old one meanwhile.
  await ada.json('POST', '/api/profile', {
    json: {
      mName: adaAccount.name,
      email: 'ada.lovelace@fixture.example',
      currentPassword: adaAccount.password,
    },
  });

  const [grace, graceAccount] = await signUp(base, 'Grace Hopper', 'grace@fixture.example');
  members.push(graceAccount);
  await payWithPayPal(grace, graceAccount, 'P-DEMO-MONTHLY');
  await paid(grace, graceAccount, 'monthly');
  const compilers = await courseFromOutline(grace, {
    topic: 'Compilers',
    subtopic: 'Parsing',
    pasted:
      'A compiler reads source code and writes machine code. It parses the text into a tree, ' +
      'checks the types, optimises the tree and emits instructions. '.repeat(6),
  });
  graceAccount.courseIds.push(compilers);
  await study(grace, compilers, await lessonIds(grace, compilers));
  await grace.json('POST', '/api/finish', { json: { courseId: compilers } });
  await takeQuiz(grace, compilers);
  await grace.json('POST', `/course/${compilers}/share`, { form: { intent: 'share' } });
  const cobol = await courseFromApi(grace, 'COBOL');
  graceAccount.courseIds.push(cobol);

  const [katherine, katherineAccount] = await signUp(
    base,
    'Katherine Johnson',
    'katherine@fixture.example',
  );
  members.push(katherineAccount);
  await payWithRazorpay(katherine, katherineAccount, 'Yearly Plan');
  await paid(katherine, katherineAccount, 'yearly');
  const orbits = await courseFromApi(katherine, 'Orbits');
  katherineAccount.courseIds.push(orbits);
  await study(katherine, orbits, (await lessonIds(katherine, orbits)).slice(0, 1));

  const [dorothy, dorothyAccount] = await signUp(
    base,
    'Dorothy Vaughan',
    'dorothy@fixture.example',
  );
  members.push(dorothyAccount);
  await payWithPayPal(dorothy, dorothyAccount, 'P-DEMO-YEARLY');
  await paid(dorothy, dorothyAccount, 'yearly');
  // Cancelled: still paid for until the period ends.
  await dorothy.json('POST', '/api/paypalcancel', { json: {} });
  // A reset link asked for and never used: the password stays the fixture's.
  await new Visitor(base).json('POST', '/api/forgot', { json: { email: dorothyAccount.email } });

  const operator = new Visitor(base);
  await operator.json('POST', '/api/signin', {
    json: { email: admin.email, password: admin.password },
  });
  await operator.json('POST', '/api/saveadmin', {
    json: { type: 'terms', data: '<p>Terms of this install, edited by its admin.</p>' },
  });
  await operator.expect(200, 'POST', '/profile', {
    form: { intent: 'create-token', tokenName: 'Monthly report' },
  });

  await new Visitor(base).json('POST', '/api/contact', {
    json: {
      fname: 'Visiting',
      lname: 'Teacher',
      email: 'teacher@fixture.example',
      phone: '4915112345678',
      msg: 'Can my class use CourseGen together?',
    },
  });

  return { admin, members };
}

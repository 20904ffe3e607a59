import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The layer rule of eslint.config.js, run on planted files: each backwards
 * import fails `npm run lint`, and the same import in its proper layer passes.
 */
const eslint = new ESLint({
  cwd: process.cwd(),
  // Planted files exist only as text: without the type-aware rules, which need them on disk.
  overrideConfig: {
    languageOptions: { parserOptions: { projectService: false } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'off',
      '@typescript-eslint/await-thenable': 'off',
      '@typescript-eslint/no-misused-promises': 'off',
    },
  },
});

async function layerErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result!.messages
    .filter((message) => message.ruleId === '@typescript-eslint/no-restricted-imports')
    .map((message) => message.message);
}

// The first lint loads the whole configuration and its plugins.
describe('the layer rule', { timeout: 30_000 }, () => {
  it.each([
    [
      'app/models/planted.server.ts',
      "import { signIn } from '~/services/accounts/sign-in.server';",
    ],
    ['app/models/planted.server.ts', "import { lessonQueue } from '~/queues/lesson.server';"],
    ['app/models/planted.server.ts', "import { registry } from '../../jobs/registry';"],
    ['app/utils/planted.server.ts', "import { submitContact } from '~/services/contact.server';"],
    ['app/domain/planted.ts', "import { database } from '~/utils/database.server';"],
    ['app/domain/planted.ts', "import { users } from '../../db/schema';"],
    ['app/models/planted.server.ts', "import { users } from '../../db/schema';"],
    ['app/services/planted.server.ts', "import { courses } from '../../db/schema.pg';"],
    ['app/models/planted.server.ts', "import { users } from '../../db/tables';"],
    ['app/services/planted.server.ts', "import { text } from '../../db/dialects';"],
    ['app/routes/member/planted.tsx', "import Anthropic from '@anthropic-ai/sdk';"],
    ['app/services/planted.server.ts', "import Razorpay from 'razorpay';"],
    ['app/services/planted.server.ts', "import { loader } from '~/routes/member/home';"],
    ['jobs/planted.ts', "import { loader } from '~/routes/member/home';"],
    ['server/planted.ts', "import { env } from '~/utils/env.server';"],
    ['server/planted.ts', "import { log } from '../app/utils/logger.server';"],
    ['app/components/planted.tsx', "import { signIn } from '~/services/accounts/sign-in.server';"],
    ['app/components/planted.tsx', "import { users } from '../../db/schema';"],
    ['app/components/planted.tsx', "import { getUserEmail } from '~/models/users.server';"],
    ['app/components/planted.tsx', "import { lessonQueue } from '~/queues/lesson.server';"],
    ['app/components/planted.tsx', "import { env } from '~/utils/env.server';"],
    ['app/browser/planted.ts', "import { signIn } from '~/services/accounts/sign-in.server';"],
    ['app/api/planted.server.ts', "import { loader } from '~/routes/member/home';"],
    ['app/routes/member/planted.tsx', "import { markLessonDone } from '~/models/lessons.server';"],
    ['app/routes/admin/planted.tsx', "import { setRole } from '~/models/admin.server';"],
    ['app/api/planted.server.ts', "import { createUser } from '~/models/users.server';"],
  ])('refuses in %s: %s', async (filePath, code) => {
    expect(
      await layerErrors(filePath, `${code}\nexport const used = [${importedName(code)}];\n`),
    ).not.toEqual([]);
  });

  it.each([
    [
      'app/routes/member/planted.tsx',
      "import { signIn } from '~/services/accounts/sign-in.server';",
    ],
    ['app/services/planted.server.ts', "import { getUserEmail } from '~/models/users.server';"],
    ['app/services/vendors/planted.server.ts', "import Anthropic from '@anthropic-ai/sdk';"],
    ['app/domain/planted.ts', "import type { Plan } from '../../db/schema';"],
    ['app/models/planted.server.ts', "import { tables } from '~/utils/database.server';"],
    ['jobs/planted.ts', "import { lessonQueue } from '~/queues/lesson.server';"],
    ['server/planted.ts', "import type { WebServerHooks } from '../app/load-context';"],
    ['server/planted.ts', "import { checkBodySize } from './body-limit';"],
    ['app/components/planted.tsx', "import type { PublicUser } from '~/models/users.server';"],
    ['app/components/planted.tsx', "import type { GenerationState } from '../../db/schema';"],
    ['app/components/planted.tsx', "import { useLongPoll } from '~/browser/use-long-poll';"],
    ['app/components/planted.tsx', "import { getPlan } from '~/domain/plans';"],
    [
      'app/routes/member/planted.tsx',
      "import { getCourseForUser } from '~/models/courses.server';",
    ],
    ['app/routes/member/planted.tsx', "import type { Lesson } from '~/models/lessons.server';"],
  ])('allows in %s: %s', async (filePath, code) => {
    expect(
      await layerErrors(filePath, `${code}\nexport const used = [${importedName(code)}];\n`),
    ).toEqual([]);
  });
});

function importedName(code: string): string {
  const name = /import (?:type )?\{? ?(\w+)/.exec(code)![1]!;
  return code.includes('import type') ? `null as unknown as ${name}` : name;
}

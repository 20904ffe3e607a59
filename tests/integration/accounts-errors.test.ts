import { describe, expect, it, vi } from 'vitest';
import { pageResult, post, uniqueEmail } from '../support/account-routes';
import { action as apiSignIn } from '~/routes/api/api.signin';
import { action as apiSignUp } from '~/routes/api/api.signup';
import { action as signInAction } from '~/routes/auth/signin';
import { action as signUpAction } from '~/routes/auth/signup';

// The database "fails" for every lookup by email: the routes must answer with
// the spec's 'Internal Server Error', never a stack trace or an error page.
vi.mock('~/models/users.server', async (importOriginal) => ({
  ...(await importOriginal<typeof import('~/models/users.server')>()),
  getUserByEmail: () => Promise.reject(new Error('SQLITE_IOERR: disk I/O error')),
}));

describe('when the server fails', () => {
  it('the API answers 500 with the message and nothing else', async () => {
    for (const [action, path] of [
      [apiSignIn, '/api/signin'],
      [apiSignUp, '/api/signup'],
    ] as const) {
      const response = (await post(action, path, {
        email: uniqueEmail(),
        mName: 'Someone',
        password: 'long-enough-1',
      })) as Response;
      expect(response.status, path).toBe(500);
      const text = await response.text();
      expect(JSON.parse(text), path).toMatchObject({
        success: false,
        message: 'Internal Server Error',
      });
      expect(text).not.toContain('SQLITE');
    }
  });

  it('the pages answer with the message to show', async () => {
    for (const [action, path] of [
      [signInAction, '/signin'],
      [signUpAction, '/signup'],
    ] as const) {
      const result = pageResult(
        await post(
          action,
          path,
          { email: uniqueEmail(), mName: 'Someone', password: 'long-enough-1' },
          { as: 'form' },
        ),
      );
      expect(result, path).toMatchObject({
        status: 500,
        data: { success: false, message: 'Internal Server Error' },
      });
    }
  });
});

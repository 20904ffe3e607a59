import { describe, expect, it } from 'vitest';
import {
  profileSchema,
  resetApiSchema,
  resetFormSchema,
  signInSchema,
  signUpSchema,
} from './schemas.server';
import { parseWith } from '~/utils/validation.server';

const REQUIRED = 'Please fill in all required fields';
const LENGTH = 'Password should be at least 9 characters';
const MISMATCH = 'The password and confirm password do not match';

describe('account schemas', () => {
  it('sign-up: required fields first, then email, then the length rule; type is never taken', () => {
    expect(parseWith(signUpSchema, { mName: 'A', email: 'bad', password: '' })).toMatchObject({
      ok: false,
      message: REQUIRED,
    });
    expect(parseWith(signUpSchema, { mName: ' ', email: 'a@b.co', password: 'x' })).toMatchObject({
      ok: false,
      message: REQUIRED,
    });
    expect(
      parseWith(signUpSchema, { mName: 'A', email: 'a@b.co', password: '12345678' }),
    ).toMatchObject({ ok: false, message: LENGTH });
    expect(
      parseWith(signUpSchema, { mName: 'A', email: 'a@b.co', password: 'x'.repeat(73) }),
    ).toMatchObject({ ok: false });
    expect(
      parseWith(signUpSchema, {
        mName: ' Ann ',
        email: 'a@b.co',
        password: ' 123456789 ',
        type: 'yearly',
      }),
    ).toEqual({ ok: true, value: { mName: 'Ann', email: 'a@b.co', password: ' 123456789 ' } });
  });

  it('sign-in: both fields required, any text type otherwise refused', () => {
    for (const body of [{}, { email: 'a@b.co' }, { email: ['a'], password: {} }, null]) {
      expect(parseWith(signInSchema, body)).toMatchObject({ ok: false, message: REQUIRED });
    }
  });

  it('reset page: required, then match, then length', () => {
    expect(
      parseWith(resetFormSchema, { password: '', confirmPassword: 'x', token: 't' }),
    ).toMatchObject({ ok: false, message: REQUIRED });
    expect(
      parseWith(resetFormSchema, { password: 'abc', confirmPassword: 'abd', token: 't' }),
    ).toMatchObject({ ok: false, message: MISMATCH });
    expect(
      parseWith(resetFormSchema, { password: 'abc', confirmPassword: 'abc', token: 't' }),
    ).toMatchObject({ ok: false, message: LENGTH });
    expect(parseWith(resetApiSchema, { password: 'abcdefghij' })).toMatchObject({
      ok: false,
      message: REQUIRED,
    });
  });

  it('profile: name and email required, password optional with the length rule', () => {
    expect(parseWith(profileSchema, { mName: '', email: 'a@b.co' })).toMatchObject({
      ok: false,
      message: REQUIRED,
    });
    expect(parseWith(profileSchema, { mName: 'A', email: 'a@b.co', password: '' })).toMatchObject({
      ok: true,
    });
    expect(
      parseWith(profileSchema, { mName: 'A', email: 'a@b.co', password: 'short' }),
    ).toMatchObject({ ok: false, message: LENGTH });
  });
});

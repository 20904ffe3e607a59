import { describe, expect, it } from 'vitest';
import { certificateEmail } from './email.server';

const data = {
  certificateId: 'K7QF-9M2X-PA4D-H8TR',
  memberName: 'Ada Lovelace',
  courseTitle: 'Introduction to Astronomy',
  completedAt: new Date('2026-11-22T10:00:00Z'),
};

describe('the certificate email', () => {
  it('is written from the stored completion only, with the verification link', () => {
    const email = certificateEmail(
      { ...data, memberName: '<b>Ada</b>' },
      'Acme Learning',
      'https://courses.example.com/verify/K7QF-9M2X-PA4D-H8TR',
    );
    expect(email.subject).toBe('Your certificate for Introduction to Astronomy');
    expect(email.html).toContain('&lt;b&gt;Ada&lt;/b&gt;');
    expect(email.html).toContain('https://courses.example.com/verify/K7QF-9M2X-PA4D-H8TR');
    expect(email.html).toContain('22/11/2026');
    expect(email.text).toContain('certificate.png');
  });
});

import { describe, expect, it } from 'vitest';
import { action } from './theme';

function post(body: string, contentType?: string) {
  const request = new Request('http://localhost/theme', {
    method: 'POST',
    body,
    headers: contentType ? { 'Content-Type': contentType } : {},
  });
  // Remix answers a thrown Response as it answers a returned one.
  return (action({ request, params: {}, context: {} }) as Promise<Response>).catch(
    (thrown: unknown) => {
      if (thrown instanceof Response) return thrown;
      throw thrown;
    },
  );
}

describe('POST /theme', () => {
  it('sets the cookie and goes back to a same-site page', async () => {
    const response = await post(
      'theme=dark&redirectTo=%2Fpricing',
      'application/x-www-form-urlencoded',
    );
    expect(response.status).toBe(302);
    expect(response.headers.get('Location')).toBe('/pricing');
    expect(response.headers.get('Set-Cookie')).toMatch(/^theme=/);
  });

  it.each(['/.//evil.example/x', '/%2e//evil.example', '/a/..//evil.example'])(
    'never sends the browser to another host (%s)',
    async (target) => {
      const response = await post(
        `theme=dark&redirectTo=${encodeURIComponent(target)}`,
        'application/x-www-form-urlencoded',
      );
      expect(response.headers.get('Location')).toBe('/');
    },
  );

  it('refuses an unknown theme or an unreadable body with a 400, never a 500', async () => {
    for (const [body, type, message] of [
      ['theme=purple', 'application/x-www-form-urlencoded', 'Unknown theme'],
      ['{"theme":', 'application/json', 'The request body is not valid JSON'],
      ['\u0000garbage', undefined, 'Unknown theme'],
    ] as const) {
      const response = await post(body, type);
      expect(response.status).toBe(400);
      const answer = (await response.json()) as { success: boolean; message: string };
      expect(answer.success).toBe(false);
      expect(answer.message).toContain(message);
    }
  });
});

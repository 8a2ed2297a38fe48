import { describe, expect, it, vi } from 'vitest';
import { createApiClient, createRequests } from './client.ts';
import { ApiError } from './errors.ts';

function answering(status: number, body: unknown) {
  return vi.fn(
    async (_request: Request) =>
      new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } }),
  );
}

describe('API client', () => {
  it('sends the stored token as a bearer token', async () => {
    const fetch = answering(200, { success: true });
    const requests = createRequests(
      createApiClient({ baseUrl: 'http://atelier.test', readToken: () => 'tok-123', fetch }),
    );
    await requests.logOut();
    const request = fetch.mock.calls[0]?.[0];
    expect(request?.headers.get('Authorization')).toBe('Bearer tok-123');
    expect(request?.url).toBe('http://atelier.test/api/auth/logout');
  });

  it('sends no Authorization header without a token', async () => {
    const fetch = answering(200, { success: true });
    const requests = createRequests(createApiClient({ baseUrl: 'http://atelier.test', readToken: () => null, fetch }));
    await requests.logOut();
    expect(fetch.mock.calls[0]?.[0].headers.has('Authorization')).toBe(false);
  });

  it('throws an ApiError with the status and body of a failed call', async () => {
    const fetch = answering(401, { detail: 'Invalid email or password.' });
    const requests = createRequests(createApiClient({ baseUrl: 'http://atelier.test', readToken: () => null, fetch }));
    const failure = requests.logIn({ email: 'a@b.co', password: 'wrong-password', remember_me: true });
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ status: 401, message: 'Invalid email or password.' });
  });
});

import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { onboardingChats } from '../../server/db/schema.ts';
import { call, withTestApp } from '../support/app.ts';
import { signUp } from '../support/conversations.ts';

// The chat-only onboarding's sessions: opened by anonymous visitors (a few per address), each with
// a token that only its tab holds, and claimed by the account the visitor signs up or logs in to.

const t = withTestApp({ AUTH_RATE_LIMIT_PER_IP: '3' });

const open = (ip: string) => call(t.app, 'POST', '/api/onboarding-chat', { ip });
const claim = (token: string, chatId: string, chatToken: string) =>
  call(t.app, 'POST', `/api/onboarding-chat/${chatId}/claim`, { token, body: { chat_token: chatToken } });

describe('chat-only onboarding sessions', () => {
  it('opens a session for an anonymous visitor with a token of its own, a day long, a few per address', async () => {
    const first = await open('203.0.113.9');
    expect(first.status).toBe(200);
    const { chat_id: id, chat_token: token, expires_at: expiresAt } = first.body as Record<string, string>;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(new Date(expiresAt!).getTime() - Date.now()).toBeGreaterThan(23.9 * 3600_000);
    const [row] = await t.db.select().from(onboardingChats).where(eq(onboardingChats.id, id!));
    expect(row?.tokenHash).not.toContain(token);
    expect(row?.userId).toBeNull();

    expect((await open('203.0.113.9')).status).toBe(200);
    expect((await open('203.0.113.9')).status).toBe(200);
    const limited = await open('203.0.113.9');
    expect(limited.status).toBe(429);
    expect(limited.body?.detail).toMatch(/^Too many onboarding chat attempts\. Please try again in \d+ seconds\.$/);
    expect((await open('198.51.100.4')).status).toBe(200);
  });

  it('binds the session to the account that signs in, once, with the chat’s token', async () => {
    const ada = await signUp(t.app, t.db, 'ada-chat@acme.example');
    const eve = await signUp(t.app, t.db, 'eve-chat@acme.example');
    const { chat_id: id, chat_token: token } = (await open('192.0.2.1')).body as Record<string, string>;

    expect((await claim(ada.token, id!, 'not-the-token')).status).toBe(404);
    expect((await claim(ada.token, '00000000-0000-4000-8000-000000000000', token!)).status).toBe(404);
    expect(
      (await call(t.app, 'POST', `/api/onboarding-chat/${id}/claim`, { body: { chat_token: token } })).status,
    ).toBe(401);
    expect((await claim(ada.token, id!, token!)).body).toEqual({ chat_id: id, user_id: ada.id });
    expect((await claim(ada.token, id!, token!)).status).toBe(200);
    expect(await claim(eve.token, id!, token!)).toMatchObject({
      status: 409,
      body: { detail: 'This onboarding chat belongs to another account.' },
    });

    // An unclaimed session past its day is gone; a claimed one lives on.
    const { chat_id: stale, chat_token: staleToken } = (await open('192.0.2.2')).body as Record<string, string>;
    await t.db
      .update(onboardingChats)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(onboardingChats.id, stale!));
    expect((await claim(ada.token, stale!, staleToken!)).status).toBe(404);
    await t.db
      .update(onboardingChats)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(onboardingChats.id, id!));
    expect((await claim(ada.token, id!, token!)).status).toBe(200);
  });
});

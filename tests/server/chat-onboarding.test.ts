import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { onboardingChats } from '../../server/db/schema.ts';
import {
  ACCOUNT_QUESTION,
  CREATE_ACCOUNT,
  GREETING,
  HAVE_ACCOUNT,
  confirmation,
  uploadPrompt,
} from '../../server/modules/chat-onboarding/flow.ts';
import { createChatRunner } from '../../server/modules/chat-onboarding/runner.ts';
import type { OnboardingFlowContext } from '../../server/modules/chat-onboarding/flow.ts';
import { LOGIN_PROMPT, SIGNUP_PROMPT } from '../../openapi/chat-onboarding.ts';
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

describe('the onboarding agent of a chat', () => {
  it('greets, takes each step with the spec’s phrases, answers questions in between, and upgrades, across a restart', async () => {
    const ada = await signUp(t.app, t.db, 'ada-flow@acme.example');
    const { chat_id: id, chat_token: token } = (await open('192.0.2.9')).body as Record<string, string>;
    const upgrades: [string, OnboardingFlowContext][] = [];
    const runner = () =>
      createChatRunner({
        db: t.db,
        answer: async (question, step) => `(${step}) You asked: ${question}`,
        upgrade: async (userId, flow) => (upgrades.push([userId, flow]), 'conv-7'),
      });
    const first = runner();
    const said = async (event: Parameters<typeof first.handle>[1], by = first) =>
      (await by.handle(id!, event)).map((e) => [e.source, e.message]);

    expect(await said(null)).toEqual([['agent', GREETING]]);
    expect(await said({ type: 'MESSAGE', text: 'A todo app for my team' })).toEqual([
      ['user', 'A todo app for my team'],
      ['agent', ACCOUNT_QUESTION],
    ]);
    expect(await said({ type: 'MESSAGE', text: 'Is it free?' })).toEqual([
      ['user', 'Is it free?'],
      ['agent', '(account) You asked: Is it free?'],
    ]);
    expect(await said({ type: 'MESSAGE', text: CREATE_ACCOUNT })).toEqual([
      ['user', CREATE_ACCOUNT],
      ['agent', SIGNUP_PROMPT],
    ]);
    expect(await said({ type: 'REWIND', reason: 'signup_cancelled' })).toEqual([['agent', ACCOUNT_QUESTION]]);
    expect(await said({ type: 'MESSAGE', text: HAVE_ACCOUNT })).toEqual([
      ['user', HAVE_ACCOUNT],
      ['agent', LOGIN_PROMPT],
    ]);

    // The server restarts: a new runner goes on from the stored step.
    const second = runner();
    await claim(ada.token, id!, token!);
    expect(await said({ type: 'AUTHENTICATED', userId: ada.id }, second)).toEqual([['agent', uploadPrompt()]]);
    expect(await said({ type: 'FILES_UPLOADED', files: ['todo.zip'] }, second)).toEqual([
      ['agent', confirmation('A todo app for my team', ['todo.zip'])],
    ]);
    const upgraded = await second.handle(id!, { type: 'MESSAGE', text: "Let's go!" });
    expect(upgraded.at(-1)).toMatchObject({ status_update: true, status_id: 'ONBOARDING$UPGRADED', message: 'conv-7' });
    expect(upgrades).toEqual([[ada.id, { project: ['A todo app for my team'], files: ['todo.zip'], userId: ada.id }]]);

    const all = await second.events(id!, -1, 100);
    expect(all.map((e) => e.id)).toEqual(all.map((_, i) => i));
    expect(all).toHaveLength(14);
    expect(await second.events(id!, 12, 100)).toEqual(all.slice(13));
  });
});

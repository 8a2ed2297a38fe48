import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { onboardingChatFiles, onboardingChats } from '../../server/db/schema.ts';
import {
  ACCOUNT_QUESTION,
  CREATE_ACCOUNT,
  GREETING,
  HAVE_ACCOUNT,
  SKIP_UPLOAD,
  answered,
  confirmation,
  upgradeFailed,
  uploadPrompt,
} from '../../server/modules/chat-onboarding/flow.ts';
import { INACTIVE_ACCOUNT } from '../../server/shared/domain-errors.ts';
import { createChatRunner } from '../../server/modules/chat-onboarding/runner.ts';
import type { OnboardingFlowContext } from '../../server/modules/chat-onboarding/flow.ts';
import { LOGIN_PROMPT, SIGNUP_PROMPT } from '../../openapi/chat-onboarding.ts';
import { call, withTestApp } from '../support/app.ts';
import { listen, signUp, SocketClient, waitFor, waitRunning } from '../support/conversations.ts';

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
        upgrade: async (_chatId, userId, flow) => (upgrades.push([userId, flow]), 'conv-7'),
        storedFiles: async () => ['todo.zip'],
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
      ['agent', answered('(account) You asked: Is it free?')],
    ]);
    expect(await said({ type: 'MESSAGE', text: CREATE_ACCOUNT })).toEqual([
      ['user', CREATE_ACCOUNT],
      ['agent', SIGNUP_PROMPT],
    ]);
    // The rewind is confirmed as the spec's rewind_success.
    expect(await said({ type: 'REWIND', reason: 'signup_cancelled' })).toEqual([
      ['agent', ACCOUNT_QUESTION],
      ['environment', undefined],
    ]);
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

    const all = await second.after(id!, -1, 100);
    expect(all.map((e) => e.id)).toEqual(all.map((_, i) => i));
    expect(all).toHaveLength(15);
    expect(all[8]).toMatchObject({ status_update: true, type: 'info', status_id: 'rewind_success' });
    expect(await second.after(id!, 12, 100)).toEqual(all.slice(13));
  });
});

describe('the onboarding chat’s socket', () => {
  it('greets an anonymous visitor with the chat token, takes their messages and rewinds, and takes nothing for a runtime', async () => {
    const baseUrl = await listen(t.app);
    const { chat_id: id, chat_token: token } = (await open('192.0.2.20')).body as Record<string, string>;
    const query = { conversation_id: id!, latest_event_id: -1, chat_only_mode: 'true' };

    const wrong = await SocketClient.open(baseUrl, { ...query, auth_token: 'not-the-token' });
    await wrong.waitFor((s) => s.closed !== null, 'the refusal');
    expect(wrong.frames[0]).toMatchObject({ error: true, error_code: 404 });

    const socket = await SocketClient.open(baseUrl, { ...query, auth_token: token! });
    await socket.waitFor((s) => s.events.length === 1, 'the greeting');
    expect(socket.events[0]).toMatchObject({ id: 0, source: 'agent', action: 'message', message: GREETING });

    // No form is open yet: nothing to rewind.
    socket.send({ action: 'generic_rewind', args: { reason: 'nothing' } });
    await socket.waitFor((s) => s.events.some((e) => e.status_id === 'rewind_error'), 'the failed rewind');
    socket.send({ action: 'message', args: { content: 'A shop for my bakery' } });
    await socket.waitFor((s) => s.events.some((e) => e.message === ACCOUNT_QUESTION), 'the account question');
    socket.send({ action: 'message', args: { content: CREATE_ACCOUNT } });
    await socket.waitFor((s) => s.events.some((e) => e.message === SIGNUP_PROMPT), 'the signup form');
    socket.send({ action: 'generic_rewind', args: { reason: 'signup_cancelled' } });
    await socket.waitFor((s) => s.events.some((e) => e.status_id === 'rewind_success'), 'the rewind');
    expect(socket.events.filter((e) => e.message === ACCOUNT_QUESTION)).toHaveLength(2);

    // The visitor has no account yet; and a command never reaches a runtime.
    socket.send({ action: 'user_authenticated', args: { auth_method: 'login', user_preferences: {} } });
    socket.send({ action: 'run', args: { command: 'cat /etc/passwd', hidden: false } });
    await socket.waitFor((s) => s.frames.filter((f) => 'error' in f).length === 2, 'the refusals');
    expect(socket.frames.filter((f) => 'error' in f).map((f) => (f as { message: string }).message)).toEqual([
      'Sign up or log in first: the chat has no account yet.',
      'The onboarding chat does not take run actions.',
    ]);

    // Opened again, it replays what is stored and greets no more.
    await socket.close();
    const again = await SocketClient.open(baseUrl, { ...query, latest_event_id: 0, auth_token: token! });
    await again.waitFor((s) => s.events.some((e) => e.status_id === 'rewind_success'), 'the replay');
    expect(again.events[0]?.id).toBe(1);
    expect(again.events.filter((e) => e.message === GREETING)).toEqual([]);
    await again.close();
  });
});

/** A multipart/form-data body with one `files` part per file. */
function multipart(files: [name: string, content: Buffer | string][]) {
  const boundary = 'chat-files-boundary';
  const parts = files.flatMap(([name, content]) => [
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${name}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    Buffer.from(content),
    Buffer.from('\r\n'),
  ]);
  return {
    payload: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

async function uploadToChat(chatId: string, chatToken: string | null, files: [string, Buffer | string][]) {
  const { payload, headers } = multipart(files);
  const response = await t.app.http.inject({
    method: 'POST',
    url: `/api/onboarding-chat/${chatId}/files`,
    payload,
    headers: { ...headers, ...(chatToken !== null && { 'x-chat-token': chatToken }) },
  });
  return { status: response.statusCode, body: JSON.parse(response.body) as Record<string, unknown> };
}

const agentSaid = (text: string) => (s: SocketClient) => s.events.some((e) => e.message === text);

/** A visitor describes 'A notes app' and logs in within the chat: the socket, at the upload step. */
async function logInThroughChat(baseUrl: string, chatId: string, chatToken: string, userToken: string) {
  const socket = await SocketClient.open(baseUrl, {
    conversation_id: chatId,
    latest_event_id: -1,
    chat_only_mode: 'true',
    auth_token: chatToken,
  });
  await socket.waitFor(agentSaid(GREETING), 'the greeting');
  socket.send({ action: 'message', args: { content: 'A notes app' } });
  await socket.waitFor(agentSaid(ACCOUNT_QUESTION), 'the account question');
  socket.send({ action: 'message', args: { content: HAVE_ACCOUNT } });
  await socket.waitFor(agentSaid(LOGIN_PROMPT), 'the login form');
  expect((await claim(userToken, chatId, chatToken)).status).toBe(200);
  socket.send({ action: 'user_authenticated', args: { auth_method: 'login', user_preferences: {} } });
  await socket.waitFor(agentSaid(uploadPrompt()), 'the upload panel');
  return socket;
}

describe('the onboarding chat’s files', () => {
  it('keeps what the visitor uploads with the chat’s token, within the chat’s limits, and writes it into the upgraded workspace', async () => {
    const baseUrl = await listen(t.app);
    const ada = await signUp(t.app, t.db, 'ada-files@acme.example');
    const { chat_id: id, chat_token: token } = (await open('192.0.2.30')).body as Record<string, string>;

    expect((await uploadToChat(id!, null, [['app.ts', 'x']])).status).toBe(401);
    expect((await uploadToChat(id!, 'not-the-token', [['app.ts', 'x']])).status).toBe(404);
    expect(
      await uploadToChat(id!, token!, [
        ['app.ts', 'export const v = 1;\n'],
        ['setup.exe', 'MZ'],
      ]),
    ).toEqual({
      status: 200,
      body: {
        uploaded_files: ['app.ts'],
        skipped_files: [{ name: 'setup.exe', reason: expect.stringMatching(/^Files of type \.exe are not accepted/) }],
      },
    });
    // The same name again replaces the file; the answer lists all the chat holds.
    expect(
      (
        await uploadToChat(id!, token!, [
          ['app.ts', 'export const v = 2;\n'],
          ['docs/README.md', '# Notes\n'],
        ])
      ).body,
    ).toMatchObject({ uploaded_files: ['app.ts', 'docs/README.md'] });
    const tooMuch = await uploadToChat(id!, token!, [['big.txt', Buffer.alloc(50 * 1024 * 1024, 97)]]);
    expect(tooMuch).toMatchObject({ status: 413, body: { detail: expect.stringMatching(/over 50 MB/) } });

    // The visitor logs in within the chat; the files the agent names are those stored, not those the client claims.
    const socket = await logInThroughChat(baseUrl, id!, token!, ada.token);
    socket.send({ action: 'files_uploaded', args: { uploaded_files: ['evil.sh'], skipped_files: [] } });
    await socket.waitFor(agentSaid(confirmation('A notes app', ['app.ts', 'docs/README.md'])), 'the confirmation');
    socket.send({ action: 'message', args: { content: "Let's go!" } });
    await socket.waitFor((s) => s.events.some((e) => e.status_id === 'ONBOARDING$UPGRADED'), 'the upgrade', 30_000);
    const conversationId = socket.events.find((e) => e.status_id === 'ONBOARDING$UPGRADED')!.message!;
    await socket.close();

    await waitRunning(t.app, ada.token, conversationId);
    const workspace = path.join(t.database.dataDir, 'workspaces', conversationId);
    expect(await readFile(path.join(workspace, 'app.ts'), 'utf8')).toBe('export const v = 2;\n');
    expect(await readFile(path.join(workspace, 'docs/README.md'), 'utf8')).toBe('# Notes\n');
    // The message is recorded once the runtime has taken the workspace's snapshot.
    type Shown = { source: string; action?: string; args?: { content?: string } };
    const firstMessage = (answer: Awaited<ReturnType<typeof call>>) =>
      (answer.body?.events as Shown[]).find((e) => e.source === 'user' && e.action === 'message');
    const events = await waitFor(
      () => call(t.app, 'GET', `/api/conversations/${conversationId}/events?limit=100`, { token: ada.token }),
      (answer) => firstMessage(answer) !== undefined,
      10_000,
      'the first message',
    );
    const first = firstMessage(events);
    expect(first?.args?.content).toBe('A notes app\n\nMy project files: app.ts, docs/README.md');
    // Handed over: the chat keeps no copy.
    expect(await t.db.select().from(onboardingChatFiles).where(eq(onboardingChatFiles.chatId, id!))).toEqual([]);
  }, 60_000);

  it('binds an account still in registration onboarding, and tells it to finish that before the workspace', async () => {
    const baseUrl = await listen(t.app);
    const eve = await signUp(t.app, t.db, 'eve-inactive@acme.example', { onboarded: false });
    const { chat_id: id, chat_token: token } = (await open('192.0.2.31')).body as Record<string, string>;
    const socket = await logInThroughChat(baseUrl, id!, token!, eve.token);
    socket.send({ action: 'message', args: { content: SKIP_UPLOAD } });
    await socket.waitFor(agentSaid(confirmation('A notes app', [])), 'the confirmation');
    socket.send({ action: 'message', args: { content: "Let's go!" } });
    await socket.waitFor(agentSaid(upgradeFailed(INACTIVE_ACCOUNT)), 'the refusal');
    await socket.close();
  });
});

describe('the onboarding chats’ retention', () => {
  it('deletes an ended unclaimed chat with its messages and files, and a claimed chat’s files after a week', async () => {
    const ended = (await open('192.0.2.40')).body as Record<string, string>;
    const fresh = (await open('192.0.2.41')).body as Record<string, string>;
    const claimed = (await open('192.0.2.42')).body as Record<string, string>;
    for (const chat of [ended, fresh, claimed])
      expect((await uploadToChat(chat.chat_id!, chat.chat_token!, [['notes.md', '# notes\n']])).status).toBe(200);
    const owner = await signUp(t.app, t.db, 'keeps-chat@acme.example');
    expect((await claim(owner.token, claimed.chat_id!, claimed.chat_token!)).status).toBe(200);

    const dayAgo = new Date(Date.now() - 24 * 3600_000 - 1000);
    await t.db.update(onboardingChats).set({ expiresAt: dayAgo }).where(eq(onboardingChats.id, ended.chat_id!));
    const eightDaysAgo = new Date(Date.now() - 8 * 24 * 3600_000);
    await t.db
      .update(onboardingChats)
      .set({ createdAt: eightDaysAgo, expiresAt: eightDaysAgo })
      .where(eq(onboardingChats.id, claimed.chat_id!));

    // (Earlier tests' ended chats go too.)
    const swept = await t.app.modules.chatOnboarding.sweep();
    expect(swept.chats).toBeGreaterThanOrEqual(1);
    expect(swept.files).toBeGreaterThanOrEqual(1);
    const chats = (await t.db.select({ id: onboardingChats.id }).from(onboardingChats)).map((row) => row.id);
    expect(chats).not.toContain(ended.chat_id);
    expect(chats).toEqual(expect.arrayContaining([fresh.chat_id, claimed.chat_id]));
    const filesOf = async (chatId: string) =>
      t.db.select().from(onboardingChatFiles).where(eq(onboardingChatFiles.chatId, chatId));
    expect(await filesOf(ended.chat_id!)).toEqual([]);
    expect(await filesOf(claimed.chat_id!)).toEqual([]);
    expect(await filesOf(fresh.chat_id!)).toHaveLength(1);
    // Again: nothing more is over.
    expect(await t.app.modules.chatOnboarding.sweep()).toEqual({ chats: 0, files: 0 });
  });
});

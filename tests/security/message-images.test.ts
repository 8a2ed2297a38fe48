import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, withTestApp } from '../support/app.ts';
import { createRunning, listen, signUp, SocketClient } from '../support/conversations.ts';

// A message's attached images are shown in the chat without a click. Were a link to another
// host allowed, showing the conversation would send a request there (a channel out, and the
// reader's address): every way a message comes in takes images as data URLs only.

const t = withTestApp();
const elsewhere = 'https://collector.example/pixel.png?secret=1';
const picture = 'data:image/png;base64,iVBORw0KGgo=';
let baseUrl: string;
let owner: { token: string; id: string };
let conversationId: string;
const opened: SocketClient[] = [];

beforeAll(async () => {
  baseUrl = await listen(t.app);
  owner = await signUp(t.app, t.db, 'images@acme.example');
  conversationId = (await createRunning(t.app, owner.token)).conversation_id;
});

afterAll(async () => {
  await Promise.all(opened.map((socket) => socket.close()));
});

const messages = async () =>
  ((await call(t.app, 'GET', `/api/conversations/${conversationId}/events?limit=100`, { token: owner.token })).body
    ?.events ?? []) as { source: string; action?: string; args?: { image_urls?: string[] } }[];
const userImages = async () =>
  (await messages())
    .filter((e) => e.source === 'user' && e.action === 'message')
    .flatMap((e) => e.args?.image_urls ?? []);

describe('images in a message', () => {
  it('refuses a link to another host when a conversation is created, and takes a data URL', async () => {
    const refused = await call(t.app, 'POST', '/api/conversations', {
      token: owner.token,
      body: { initial_user_msg: 'Look', image_urls: [elsewhere] },
    });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ detail: [{ loc: ['body', 'image_urls', '0'] }] });
    const taken = await call(t.app, 'POST', '/api/conversations', {
      token: owner.token,
      body: { initial_user_msg: 'Look', image_urls: [picture] },
    });
    expect(taken.status).toBe(200);
  });

  it('refuses a link in a socket message, stores none of it, and takes the data URL after', async () => {
    const socket = await SocketClient.open(
      baseUrl,
      { conversation_id: conversationId, latest_event_id: (await messages()).length - 1 },
      { authorization: `Bearer ${owner.token}` },
    );
    opened.push(socket);
    socket.send({ action: 'message', args: { content: 'see this', image_urls: [elsewhere] } });
    await socket.waitFor(
      (client) => client.frames.some((f) => 'error' in f && f.error === true),
      'the refusal',
      10_000,
    );
    expect(JSON.stringify(socket.frames.find((f) => 'error' in f))).toContain('image_urls');
    socket.send({ action: 'message', args: { content: 'this one', image_urls: [picture] } });
    await socket.waitFor(
      (client) => client.events.some((e) => e.source === 'user' && e.args?.image_urls?.[0] === picture),
      'the message with its picture',
    );
    expect(await userImages()).toEqual([picture]);
  });

  it('refuses a link in an upload form before any file reaches the workspace', async () => {
    const upload = (images: string[]) => {
      const form = new FormData();
      form.append('files', new Blob(['hello']), 'note.txt');
      form.append('message_content', 'with a picture');
      form.append('send_message', 'true');
      for (const image of images) form.append('image_urls', image);
      return fetch(`${baseUrl}/api/conversations/${conversationId}/upload-files`, {
        method: 'POST',
        headers: { authorization: `Bearer ${owner.token}` },
        body: form,
      });
    };
    const refused = await upload([picture, elsewhere]);
    expect(refused.status).toBe(422);
    expect(((await refused.json()) as { detail: { loc: unknown[] }[] }).detail[0]?.loc).toEqual([
      'body',
      'image_urls',
      1,
    ]);
    const tooMany = await upload(Array.from({ length: 21 }, () => picture));
    expect(tooMany.status).toBe(422);
    const listed = await call(t.app, 'GET', `/api/conversations/${conversationId}/list-files`, { token: owner.token });
    expect(JSON.stringify(listed.body)).not.toContain('note.txt');
    expect(await userImages()).not.toContain(elsewhere);
  });
});

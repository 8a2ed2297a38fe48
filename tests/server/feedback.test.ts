import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, withTestApp } from '../support/app.ts';
import { createRunning, signUp, waitFor } from '../support/conversations.ts';
import type { Conversation } from '../../openapi/types.ts';

const t = withTestApp();
let user: { token: string; id: string };
let other: { token: string; id: string };
let conversation: Conversation;
/** Two events of the conversation: one to rate, one left unrated. */
let rated: number;
let unrated: number;

beforeAll(async () => {
  user = await signUp(t.app, t.db, 'feedback@acme.example');
  other = await signUp(t.app, t.db, 'other-feedback@acme.example');
  conversation = await createRunning(t.app, user.token, { initial_user_msg: 'hi' });
  const events = await waitFor(
    () =>
      call(t.app, 'GET', `/api/conversations/${conversation.conversation_id}/events?limit=20`, { token: user.token }),
    (r) => ((r.body?.events as unknown[] | undefined)?.length ?? 0) >= 2,
    20_000,
    'two events',
  );
  const ids = (events.body?.events as { id: number }[]).map((e) => e.id);
  [rated, unrated] = ids as [number, number];
});

const rate = (token: string, body: Record<string, unknown>) =>
  call(t.app, 'POST', '/feedback/conversation', { token, body });
const one = (token: string, conversationId: string, eventId: number | string) =>
  call(t.app, 'GET', `/feedback/conversation/${conversationId}/${eventId}`, { token });
const batch = (token: string, conversationId: string) =>
  call(t.app, 'GET', `/feedback/conversation/${conversationId}/batch`, { token });

describe('event feedback', () => {
  it('answers exists false for an event without a rating', async () => {
    const found = await one(user.token, conversation.conversation_id, unrated);
    expect(found.status).toBe(200);
    expect(found.body).toEqual({ exists: false, rating: null, reason: null, metadata: null });
    expect((await batch(user.token, conversation.conversation_id)).body).toEqual({});
  });

  it('stores a rating with its reason and metadata, read back alone and in the batch', async () => {
    const stored = await rate(user.token, {
      conversation_id: conversation.conversation_id,
      event_id: rated,
      rating: 2,
      reason: 'not_following_instructions',
      metadata: { source: 'likert-scale' },
    });
    expect(stored).toMatchObject({ status: 200, body: { success: true } });
    const expected = {
      exists: true,
      rating: 2,
      reason: 'not_following_instructions',
      metadata: { source: 'likert-scale' },
    };
    expect((await one(user.token, conversation.conversation_id, rated)).body).toEqual(expected);
    expect((await batch(user.token, conversation.conversation_id)).body).toEqual({ [String(rated)]: expected });
    expect((await one(user.token, conversation.conversation_id, unrated)).body).toMatchObject({ exists: false });
  });

  it('accepts a rating without a reason (the countdown ran out)', async () => {
    const stored = await rate(user.token, {
      conversation_id: conversation.conversation_id,
      event_id: unrated,
      rating: 5,
    });
    expect(stored.status).toBe(200);
    expect((await one(user.token, conversation.conversation_id, unrated)).body).toEqual({
      exists: true,
      rating: 5,
      reason: null,
      metadata: null,
    });
    expect(Object.keys((await batch(user.token, conversation.conversation_id)).body ?? {}).sort()).toEqual(
      [String(rated), String(unrated)].sort(),
    );
  });

  it('answers 409 to a second rating of the same event and keeps the first', async () => {
    const again = await rate(user.token, { conversation_id: conversation.conversation_id, event_id: rated, rating: 4 });
    expect(again.status).toBe(409);
    expect((await one(user.token, conversation.conversation_id, rated)).body).toMatchObject({ rating: 2 });
  });

  it('rejects ratings outside 1..5 with 422', async () => {
    for (const rating of [0, 6]) {
      expect(
        (await rate(user.token, { conversation_id: conversation.conversation_id, event_id: rated, rating })).status,
      ).toBe(422);
    }
  });

  it("answers 404 for another user's conversation, an unknown conversation and an unknown event", async () => {
    const body = { conversation_id: conversation.conversation_id, event_id: rated, rating: 3 };
    expect((await rate(other.token, body)).status).toBe(404);
    expect((await one(other.token, conversation.conversation_id, rated)).status).toBe(404);
    expect((await batch(other.token, conversation.conversation_id)).status).toBe(404);
    expect((await rate(user.token, { ...body, conversation_id: 'no-such-conversation' })).status).toBe(404);
    expect((await rate(user.token, { ...body, event_id: 999_999 })).status).toBe(404);
    expect((await one(user.token, conversation.conversation_id, -1)).status).toBe(422);
  });

  it('needs a signed-in user', async () => {
    expect((await call(t.app, 'GET', `/feedback/conversation/${conversation.conversation_id}/batch`)).status).toBe(401);
  });
});

describe('trajectory feedback', () => {
  it('stores the feedback with a snapshot of the events', async () => {
    const sent = await call(t.app, 'POST', `/api/conversations/${conversation.conversation_id}/submit-feedback`, {
      token: user.token,
      body: {
        polarity: 'negative',
        permissions: 'private',
        feedback: 'It stopped early',
        email: 'feedback@acme.example',
        version: '1.0',
      },
    });
    expect(sent.status).toBe(200);
    expect(sent.body).toMatchObject({ success: true, feedback_id: expect.any(String) });
    const result = await t.db.execute(
      sql`select polarity, permissions, feedback, jsonb_array_length(trajectory) as events from trajectory_feedback where id = ${sent.body?.feedback_id as string}`,
    );
    const [row] = (result as unknown as { rows: Record<string, unknown>[] }).rows;
    expect(row).toMatchObject({ polarity: 'negative', permissions: 'private', feedback: 'It stopped early' });
    expect(Number(row?.events)).toBeGreaterThanOrEqual(2);
  });

  it("answers 404 for another user's conversation and 422 for an unknown polarity", async () => {
    const url = `/api/conversations/${conversation.conversation_id}/submit-feedback`;
    expect(
      (await call(t.app, 'POST', url, { token: other.token, body: { polarity: 'positive', permissions: 'public' } }))
        .status,
    ).toBe(404);
    expect(
      (await call(t.app, 'POST', url, { token: user.token, body: { polarity: 'neutral', permissions: 'public' } }))
        .status,
    ).toBe(422);
  });
});

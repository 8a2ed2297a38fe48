import { and, eq, ne } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { conversations } from '../../server/db/schema.ts';
import { call, withTestApp } from '../support/app.ts';
import { signUp } from '../support/conversations.ts';

// The limit on running conversations holds when starts race: each start counts and claims its
// slot atomically, so concurrent creates, forks and starts never pass it together.
const t = withTestApp({ MAX_RUNNING_CONVERSATIONS_PER_USER: '2' });
let ada: { token: string; id: string };

beforeAll(async () => {
  ada = await signUp(t.app, t.db, 'ada-running@acme.example');
});

const refusal = { detail: 'At most 2 conversations can run at once. Stop one to start another.' };
const create = () => call(t.app, 'POST', '/api/conversations', { token: ada.token, body: {} });
const running = async () =>
  t.db
    .select({ id: conversations.id })
    .from(conversations)
    .where(and(eq(conversations.userId, ada.id), ne(conversations.status, 'STOPPED')));
const kept = async () =>
  t.db.select({ id: conversations.id }).from(conversations).where(eq(conversations.userId, ada.id));

describe('the limit on running conversations', () => {
  it('lets exactly as many concurrent starts through as there are free slots, and keeps no refused new conversation', async () => {
    const answers = await Promise.all(Array.from({ length: 6 }, create));
    const started = answers.filter((answer) => answer.status === 200);
    const refused = answers.filter((answer) => answer.status === 429);
    expect([started.length, refused.length]).toEqual([2, 4]);
    for (const answer of refused) expect(answer.body).toEqual(refusal);
    expect((await running()).map((row) => row.id).sort()).toEqual(
      started.map((answer) => answer.body?.conversation_id as string).sort(),
    );
    expect(await kept()).toHaveLength(2);

    // Both stopped: starting them again races three new conversations for the two slots.
    const ids = started.map((answer) => answer.body?.conversation_id as string);
    for (const id of ids)
      expect((await call(t.app, 'POST', `/api/conversations/${id}/stop`, { token: ada.token })).status).toBe(200);
    expect(await running()).toHaveLength(0);
    const race = await Promise.all([
      ...ids.map((id) => call(t.app, 'POST', `/api/conversations/${id}/start`, { token: ada.token, body: {} })),
      create(),
      create(),
      create(),
    ]);
    expect(race.filter((answer) => answer.status === 200)).toHaveLength(2);
    expect(race.filter((answer) => answer.status === 429)).toHaveLength(3);
    expect(await running()).toHaveLength(2);
    // The two old conversations, and a new one only where it won a slot.
    expect(await kept()).toHaveLength(2 + race.slice(2).filter((answer) => answer.status === 200).length);
  });
});

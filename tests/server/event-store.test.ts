import { asc, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { schema } from '../../server/db/index.ts';
import { createEventStore, type NewEvent } from '../../server/modules/conversations/events.ts';
import { call, withTestApp } from '../support/app.ts';
import { createRunning, signUp } from '../support/conversations.ts';

const t = withTestApp();

const note = (text: string): NewEvent => ({ source: 'agent', action: 'think', message: text, args: { thought: text } });

describe('the event log', () => {
  it('numbers concurrent appends to one conversation without a gap or a repeat, each id stored inside its event', async () => {
    const { token } = await signUp(t.app, t.db, 'events@acme.example');
    const id = (await createRunning(t.app, token)).conversation_id;
    await call(t.app, 'POST', `/api/conversations/${id}/stop`, { token });
    const store = createEventStore(t.db);
    // The conversation's own start and stop write events too: the test's begin once they are all in.
    let latest = -2;
    for (let now = await store.latestId(id); now !== latest; now = await store.latestId(id)) {
      latest = now;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    const start = latest + 1;
    // Single events and batches of three, all at once: on PostgreSQL they race over the pool's connections.
    const appended = await Promise.all(
      Array.from({ length: 40 }, (_, n) =>
        store.append(id, n % 4 === 0 ? [note(`${n}a`), note(`${n}b`), note(`${n}c`)] : [note(`${n}`)]),
      ),
    );

    const total = 30 * 1 + 10 * 3;
    for (const batch of appended)
      expect(batch.map((event) => event.id)).toEqual(batch.map((_, i) => (batch[0]?.id ?? -1) + i));
    expect(
      appended
        .flat()
        .map((event) => event.id)
        .sort((a, b) => a - b),
    ).toEqual(Array.from({ length: total }, (_, i) => start + i));
    const rows = await t.db
      .select()
      .from(schema.events)
      .where(eq(schema.events.conversationId, id))
      .orderBy(asc(schema.events.id));
    const stored = rows.filter((row) => row.id >= start);
    expect(stored.map((row) => (row.data as { id: number }).id)).toEqual(stored.map((row) => row.id));
    // What the store returned is what it stored.
    const byId = new Map(appended.flat().map((event) => [event.id, event]));
    for (const row of stored) expect(row.data).toEqual(JSON.parse(JSON.stringify(byId.get(row.id))));
    expect(await store.latestId(id)).toBe(start + total - 1);
  });

  it('refuses to append to a conversation that does not exist, storing nothing', async () => {
    const store = createEventStore(t.db);
    await expect(store.append('no-such-conversation', [note('lost')])).rejects.toThrow('does not exist');
    expect(
      await t.db.select().from(schema.events).where(eq(schema.events.conversationId, 'no-such-conversation')),
    ).toEqual([]);
  });
});

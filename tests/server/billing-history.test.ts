import { describe, expect, it } from 'vitest';
import { creditLedger } from '../../server/db/schema.ts';
import { chargeUsage, grantCredit } from '../../server/modules/credits/index.ts';
import { call, withTestApp } from '../support/app.ts';
import { signUp } from '../support/conversations.ts';

const t = withTestApp();

/** A stored conversation row of `userId` (no runtime: the history only needs its id and title). */
async function conversation(token: string, title: string) {
  const created = await call(t.app, 'POST', '/api/conversations', { token, body: {} });
  const id = created.body?.conversation_id as string;
  await call(t.app, 'PATCH', `/api/conversations/${id}`, { token, body: { title } });
  await call(t.app, 'POST', `/api/conversations/${id}/stop`, { token });
  return id;
}

describe('the billing history', () => {
  it('groups usage by conversation into droplet and LLM (devops, chat) buckets, exact to the micro-dollar, newest first', async () => {
    const ada = await signUp(t.app, t.db, 'ada-billing@acme.example');
    const older = await conversation(ada.token, 'Older work');
    const newer = await conversation(ada.token, 'Newer work');
    let key = 0;
    const charge = (
      conversationId: string,
      micros: bigint,
      category: 'llm' | 'droplet',
      subcategory?: 'chat' | 'devops',
    ) =>
      chargeUsage(t.db, {
        userId: ada.id,
        amountMicros: micros,
        description: `usage ${key}`,
        idempotencyKey: `usage-${key++}`,
        conversationId,
        category,
        ...(subcategory && { subcategory }),
      });
    for (let i = 0; i < 12; i++) await charge(older, 1_001n, 'llm', 'chat');
    await charge(older, 250_000n, 'droplet');
    await charge(newer, 123_456n, 'llm', 'devops');
    const get = (path: string, token = ada.token) => call(t.app, 'GET', `/api/auth/transactions${path}`, { token });

    const groups = await get('/conversation-groups?per_page=10');
    expect(groups.body?.total_pages).toBe(1);
    const [first, second] = groups.body?.conversation_groups as Record<string, unknown>[];
    expect(first).toMatchObject({
      conversation_id: newer,
      title: 'Newer work',
      total_cost: 0.123456,
      droplet_usage: { count: 0, total: 0, total_pages: 0, transactions: [] },
      llm_usage: { total: 0.123456, devops: { count: 1, total: 0.123456, total_pages: 1 }, chat: { count: 0 } },
    });
    expect(second).toMatchObject({
      conversation_id: older,
      title: 'Older work',
      total_cost: 0.262012,
      droplet_usage: { count: 1, total: 0.25, total_pages: 1 },
      llm_usage: { total: 0.012012, chat: { count: 12, total: 0.012012, total_pages: 2 } },
    });
    expect((second as { llm_usage: { chat: { transactions: unknown[] } } }).llm_usage.chat.transactions).toHaveLength(
      10,
    );
    expect((await get('/conversation-groups?per_page=1&page=2')).body?.conversation_groups).toMatchObject([
      { conversation_id: older },
    ]);

    const chatPage = await get(`/category/${older}?category=llm&subcategory=chat&page=2`);
    expect(chatPage.body).toMatchObject({ total_pages: 2, total: 0.012012 });
    expect(chatPage.body?.transactions).toHaveLength(2);
    expect((chatPage.body?.transactions as { amount: number; transaction_type: string }[])[0]).toMatchObject({
      amount: 0.001001,
      transaction_type: 'usage',
      status: 'completed',
    });
    expect((await get(`/category/${older}?category=droplet`)).body).toMatchObject({ total: 0.25, total_pages: 1 });

    // A deleted conversation keeps its costs and loses its name: the browser names it in the reader's language.
    expect((await call(t.app, 'DELETE', `/api/conversations/${newer}`, { token: ada.token })).status).toBe(200);
    expect((await get('/conversation-groups?per_page=10')).body?.conversation_groups).toMatchObject([
      { conversation_id: newer, title: null, total_cost: 0.123456 },
      { conversation_id: older, title: 'Older work' },
    ]);

    // Not another user's: their conversation is not found, their history is their own.
    const bob = await signUp(t.app, t.db, 'bob-billing@acme.example');
    expect((await get(`/category/${older}?category=llm`, bob.token)).status).toBe(404);
    expect((await get('/conversation-groups', bob.token)).body).toEqual({ conversation_groups: [], total_pages: 0 });
    expect((await call(t.app, 'GET', '/api/auth/transactions/other')).status).toBe(401);
  });

  it('lists the other transactions (credit grants, purchases) newest first, 5 per page, amounts positive', async () => {
    const eve = await signUp(t.app, t.db, 'eve-billing@acme.example');
    for (let i = 1; i <= 6; i++)
      await grantCredit(t.db, {
        userId: eve.id,
        amountMicros: BigInt(i) * 1_000_000n,
        type: 'credit',
        kind: 'paid',
        expiresAt: null,
        description: `grant ${i}`,
        idempotencyKey: `grant-${i}`,
      });
    const other = await call(t.app, 'GET', '/api/auth/transactions/other', { token: eve.token });
    // signUp's own $10 test credit, then these six.
    expect(other.body?.total_pages).toBe(2);
    const descriptions = (other.body?.transactions as { description: string }[]).map((row) => row.description);
    expect(descriptions).toEqual(['grant 6', 'grant 5', 'grant 4', 'grant 3', 'grant 2']);
    // The billing view's balance: signUp's $10 and the six grants, $21.
    expect((await call(t.app, 'GET', '/api/billing/credits', { token: eve.token })).body).toEqual({ credits: 31 });
    const rows = await t.db.select().from(creditLedger);
    expect(rows.every((row) => row.conversationId === null || row.transactionType === 'usage')).toBe(true);
  });
});

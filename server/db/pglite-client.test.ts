import { PGlite } from '@electric-sql/pglite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { clientForDrizzle } from './pglite-client.ts';

let pg: PGlite;
let client: ReturnType<typeof clientForDrizzle>;
beforeEach(async () => {
  pg = await PGlite.create();
  await pg.exec(`create table items (id text primary key, n integer, big bigint, ok boolean,
    data jsonb, at timestamptz, tags text[])`);
  client = clientForDrizzle(pg, { maxStatements: 3 });
});
afterEach(() => pg.close());

const statementsInDatabase = async () =>
  (await pg.query<{ n: number }>('select count(*)::int as n from pg_prepared_statements')).rows[0]?.n;

describe('the PGlite client drizzle uses', () => {
  it('answers rows as arrays or objects, typed like PGlite’s own query() and with timestamps as text', async () => {
    const at = new Date('2026-11-24T10:00:00.000Z');
    const inserted = await client.query(
      'insert into items (id, n, big, ok, data, at) values ($1, $2, $3, $4, $5, $6), ($7, null, null, null, null, null)',
      ['a', 7, 9007199254740993n, true, JSON.stringify({ x: [1, 'two'] }), at, 'b'],
    );
    expect(inserted.affectedRows).toBe(2);
    const sql = 'select id, n, big, ok, data, at from items order by id';
    const asArrays = await client.query(sql, [], { rowMode: 'array' });
    expect(asArrays.rows).toEqual([
      ['a', 7, 9007199254740993n, true, { x: [1, 'two'] }, '2026-11-24 10:00:00+00'],
      ['b', null, null, null, null, null],
    ]);
    expect(asArrays.fields.map((f) => f.name)).toEqual(['id', 'n', 'big', 'ok', 'data', 'at']);
    expect((await client.query(sql, [], { rowMode: 'object' })).rows[0]).toEqual({
      id: 'a',
      n: 7,
      big: 9007199254740993n,
      ok: true,
      data: { x: [1, 'two'] },
      at: '2026-11-24 10:00:00+00',
    });
    const updated = await client.query('update items set n = $1 where id = any($2)', [1, ['a', 'b']]);
    expect(updated.affectedRows).toBe(2); // the array went through PGlite's own query(), which types it
  });

  it('reads text in any script, and answers larger than PGlite’s receive buffer, as PGlite’s own query() does', async () => {
    const words = ['Grüße', 'naïve café', '日本語のテキスト', 'emoji 🧑‍💻 and 𝔘𝔫𝔦𝔠𝔬𝔡𝔢', ''];
    for (const [i, word] of words.entries())
      await client.query('insert into items (id, data) values ($1, $2)', [`w${i}`, JSON.stringify({ word })]);
    // 2,000 rows of 1,000 characters and more: the answer comes from PGlite in many pieces.
    await client.query(
      `insert into items (id, n, data) select 'row' || g, g, jsonb_build_object('text', repeat('é', 1000 + g % 7)) from generate_series(1, 2000) g`,
      [],
    );
    const sql = 'select id, n, data from items order by id';
    const ours = await client.query(sql, [], { rowMode: 'object' });
    const theirs = await pg.query(sql, [], { rowMode: 'object' });
    expect(ours.rows).toHaveLength(2_005);
    expect(ours.rows).toEqual(theirs.rows);
    expect(ours.rows.find((row) => (row as { id: string }).id === 'w3')).toMatchObject({ data: { word: words[3] } });
  });

  it('prepares a statement once, keeps it when it fails to execute, and forgets one that fails to parse', async () => {
    const insert = 'insert into items (id) values ($1)';
    await client.query(insert, ['a']);
    expect(client.preparedStatements).toBe(1);
    const duplicate = await client.query(insert, ['a']).catch((error: unknown) => error);
    expect(duplicate).toMatchObject({ code: '23505' });
    await client.query(insert, ['b']);
    expect(client.preparedStatements).toBe(1);

    const wrong = await client.query('select nope from items', []).catch((error: unknown) => error);
    expect(wrong).toMatchObject({ code: '42703' });
    expect(client.preparedStatements).toBe(1);
    expect(await statementsInDatabase()).toBe(1);
    expect((await client.query('select count(*)::int as n from items', [])).rows).toEqual([{ n: 2 }]);
  });

  it('closes the least recently used statements beyond its limit', async () => {
    for (let i = 1; i <= 5; i++) await client.query(`select ${i} as n`, []);
    expect(client.preparedStatements).toBe(3);
    // An evicted statement is closed with the next exchange: the one the last query evicted is still open.
    expect(await statementsInDatabase()).toBe(3 + 1);
    await client.query('select 5 as n', []);
    expect(await statementsInDatabase()).toBe(3);
    expect((await client.query('select 1 as n', [])).rows).toEqual([{ n: 1 }]);
  });

  it('runs transactions: a rollback undoes their writes and other queries wait for them', async () => {
    const insert = 'insert into items (id) values ($1)';
    const failed = client
      .transaction(async (tx) => {
        await tx.query(insert, ['in-tx']);
        // Outside the transaction: runs after it, so it sees its outcome.
        void client.query('select count(*)::int as n from items', []).then((r) => seen.push(r.rows[0]));
        await tx.query(insert, ['in-tx']);
      })
      .catch((error: unknown) => error);
    const seen: unknown[] = [];
    expect(await failed).toMatchObject({ code: '23505' });
    await client.query('select 1', []);
    expect(seen).toEqual([{ n: 0 }]);
    await client.transaction(async (tx) => void (await tx.query(insert, ['kept'])));
    expect((await client.query('select id from items', [])).rows).toEqual([{ id: 'kept' }]);
  });
});

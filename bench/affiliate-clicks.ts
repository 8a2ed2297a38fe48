import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { affiliateLinks, affiliates } from '../server/db/schema.ts';
import { createAffiliateModule } from '../server/modules/affiliate/index.ts';
import { SecretBox } from '../server/shared/secret-box.ts';
import { createTestDatabase } from '../tests/support/database.ts';
import type { BenchResult } from './result.ts';
import { round } from './stats.ts';
import { POSTGRES_URL } from './databases.ts';

const CLICKS = 10_000;
const LINKS = 10;
const VISITORS = 1_000;
const CONCURRENCY = 64;
const BROWSER = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 Chrome/131 Safari/537.36';

/**
 * 10,000 clicks on 10 links from 1,000 visitors (each visitor clicks each link once), recorded
 * by the affiliate module as the click operation does, 64 at a time; afterwards every link must
 * count exactly its distinct visitors.
 */
async function measure(label: string, serverUrl: string | null): Promise<BenchResult[]> {
  const database = await createTestDatabase(serverUrl);
  const opened = await database.open();
  try {
    const box = new SecretBox('bench secret for the affiliate clicks benchmark');
    const { links } = createAffiliateModule({
      db: opened.db,
      rateLimit: { perIp: 1_000_000, windowMs: 60_000 },
      publicUrl: 'http://localhost',
      fingerprint: (value) => box.fingerprint(value),
    }).service;
    const owner = randomUUID();
    await opened.db.insert(affiliates).values({
      id: owner,
      fullName: 'Bench',
      email: `${owner}@bench.example`,
      passwordHash: 'x',
      whatsapp: '+1 2025550123',
      status: 'verified',
    });
    const codes = Array.from({ length: LINKS }, (_, i) => `bench-${i}`);
    await opened.db
      .insert(affiliateLinks)
      .values(codes.map((code) => ({ id: randomUUID(), affiliateId: owner, name: code, code })));
    let next = 0;
    const started = performance.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        for (let n = next++; n < CLICKS; n = next++)
          await links.click({
            code: codes[n % LINKS] as string,
            unique: true,
            ip: `10.${Math.floor(n / LINKS / 250)}.${Math.floor(n / LINKS) % 250}.1`,
            userAgent: BROWSER,
          });
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const counted = await opened.db.execute(sql`select l.code, count(distinct c.visitor)::int as unique_clicks
      from affiliate_links l join affiliate_clicks c on c.link_id = l.id where c.counted group by l.code`);
    const rows = (counted as unknown as { rows: { unique_clicks: number }[] }).rows;
    if (rows.length !== LINKS || rows.some((row) => Number(row.unique_clicks) !== VISITORS))
      throw new Error(`unique clicks drifted: ${JSON.stringify(rows)}`);
    return [
      {
        name: `${CLICKS} clicks on ${LINKS} links from ${VISITORS} visitors, ${CONCURRENCY} at a time, ${label}`,
        metric: 'clicks recorded per second (unique counts exact)',
        value: round(CLICKS / seconds, 0),
        unit: 'clicks/s',
        ...(label === 'PostgreSQL' && { target: '≥ 5,000 clicks/s' }),
      },
    ];
  } finally {
    await opened.close();
    await database.destroy();
  }
}

/** The referral click's write path: one function call per click, under a per-visitor lock. */
export async function benchAffiliateClicks(): Promise<BenchResult[]> {
  return [...(await measure('PGlite', null)), ...(await measure('PostgreSQL', POSTGRES_URL))];
}

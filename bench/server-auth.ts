import autocannon from 'autocannon';
import { startServer } from '../tests/support/server.ts';
import type { BenchResult } from './result.ts';

/** Requests per second and latency of GET /api/auth/me/extended with a real session, on loopback. */
export async function benchCurrentUser(): Promise<BenchResult[]> {
  const server = await startServer({ env: { AUTH_RATE_LIMIT_PER_IP: '100000' } });
  try {
    const post = (p: string, body: unknown) =>
      fetch(server.url + p, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    await post('/api/auth/register', { name: 'Bench', email: 'bench@acme.example', password: 'bench password' });
    const { access_token } = (await (
      await post('/api/auth/login', { email: 'bench@acme.example', password: 'bench password' })
    ).json()) as { access_token: string };
    const run = (duration: number) =>
      autocannon({
        url: `${server.url}/api/auth/me/extended`,
        connections: 32,
        duration,
        headers: { authorization: `Bearer ${access_token}` },
      });
    await run(3); // warm-up: JIT and database caches
    const result = await run(15);
    if (result.non2xx > 0 || result.errors > 0)
      throw new Error(`${result.non2xx} non-2xx answers, ${result.errors} errors`);
    return [
      {
        name: 'GET /api/auth/me/extended, 32 connections, PGlite',
        metric: 'requests per second (mean)',
        value: Math.round(result.requests.average),
        unit: 'req/s',
      },
      {
        name: 'GET /api/auth/me/extended, 32 connections, PGlite',
        metric: 'latency p99',
        value: result.latency.p99,
        unit: 'ms',
      },
      {
        name: 'GET /api/auth/me/extended, 32 connections, PGlite',
        metric: 'latency p50',
        value: result.latency.p50,
        unit: 'ms',
      },
    ];
  } finally {
    await server.destroy();
  }
}

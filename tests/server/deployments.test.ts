import { and, eq } from 'drizzle-orm';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { creditLedger, deployments } from '../../server/db/schema.ts';
import { balanceMicros } from '../../server/modules/credits/index.ts';
import {
  createDeploymentsModule,
  digitalOceanProvider,
  localProvider,
} from '../../server/modules/deployments/index.ts';
import { freePort } from '../../server/runtime/ports.ts';
import type { DeployRequest } from '../../server/modules/deployments/index.ts';
import { call, withTestApp } from '../support/app.ts';
import { signUp } from '../support/conversations.ts';
import { startDigitalOceanApi } from '../support/digitalocean-api.ts';
import { tempRuntime } from '../support/temp-runtime.ts';
import { errorAnswer } from '../../server/http/error-answers.ts';

/** A service's refusal as the client receives it: the status the edge gives it, and its detail. */
const answered = (call: Promise<unknown>) =>
  call.catch((error: unknown) => {
    const answer = errorAnswer(error);
    throw answer ? { status: answer.status, detail: answer.body.detail } : error;
  });

// Deployments on DigitalOcean (against a local server that answers like its API v2): the droplet
// made and waited for, its cost accruing per second and charged hour by hour on a simulated
// clock, deletion, a droplet that never comes up, rate limits, and who may see what.

const TOKEN = 'dop_v1_operator';
let digitalOcean: Awaited<ReturnType<typeof startDigitalOceanApi>>;
let stuck: Awaited<ReturnType<typeof startDigitalOceanApi>>;
beforeAll(async () => {
  [digitalOcean, stuck] = await Promise.all([
    startDigitalOceanApi({ token: TOKEN, pollsUntilActive: 2 }),
    startDigitalOceanApi({ token: TOKEN, pollsUntilActive: 'never' }),
  ]);
});
afterAll(() => Promise.all([digitalOcean?.close(), stuck?.close()]));

const t = withTestApp(() => ({ DIGITALOCEAN_TOKEN: TOKEN, DIGITALOCEAN_API_URL: digitalOcean.url }));

const START = new Date('2026-11-26T10:00:00Z');
let clock = START;
const minutes = (n: number) => new Date(START.getTime() + n * 60_000);
const noWait = async () => undefined;

/** The module's service alone: these tests drive it without the HTTP edge. */
const createDeploymentsService = (deps: Parameters<typeof createDeploymentsModule>[0]) =>
  createDeploymentsModule(deps).service;

/** The service on the app's database with a clock of the test's own. */
function serviceAt(apiUrl: string, announced: string[] = []) {
  return createDeploymentsService({
    db: t.db,
    provider: digitalOceanProvider({ token: TOKEN, apiUrl, region: 'nyc3', image: 'ubuntu-24-04-x64', sleep: noWait }),
    ownsConversation: async (userId, conversationId) =>
      Boolean(await t.app.modules.conversations.service.find({ id: userId }, conversationId)),
    announce: async (_userId, conversationId, text) => void announced.push(`${conversationId}: ${text}`),
    now: () => clock,
  });
}

async function conversationOf(token: string) {
  const created = await call(t.app, 'POST', '/api/conversations', { token, body: {} });
  const id = created.body?.conversation_id as string;
  await call(t.app, 'POST', `/api/conversations/${id}/stop`, { token });
  return id;
}

const app = (conversationId: string, name = 'web-1'): DeployRequest => ({
  conversationId,
  name,
  size: 's-1vcpu-1gb',
  region: null,
  environment: 'production',
  app: { archive: gzipSync(Buffer.from('app files')), start: 'node server.js', port: 8080 },
});

const droplets = (userId: string) =>
  t.db
    .select()
    .from(creditLedger)
    .where(and(eq(creditLedger.userId, userId), eq(creditLedger.category, 'droplet')));

describe('deployments on DigitalOcean', () => {
  it('makes the droplet from cloud-init, waits for its create action, and keeps its address and price', async () => {
    const ada = await signUp(t.app, t.db, 'ada-deploy@acme.example');
    const conversationId = await conversationOf(ada.token);
    clock = START;
    const row = await serviceAt(digitalOcean.url).deploy(ada.id, app(conversationId));
    expect(row).toMatchObject({
      provider: 'digitalocean',
      dropletName: 'web-1',
      ip: '127.0.0.1',
      url: 'http://127.0.0.1:8080',
      sizeSlug: 's-1vcpu-1gb',
      region: 'nyc3',
      hourlyCostMicros: 8_930n,
    });
    const [made] = digitalOcean.droplets();
    expect(made).toMatchObject({ name: 'web-1', region: 'nyc3', size: 's-1vcpu-1gb', image: 'ubuntu-24-04-x64' });
    expect(made?.tags).toEqual(['atelier']);
    // The user data unpacks the archive and runs the start command as a service on the port.
    expect(made?.userData.startsWith('#cloud-config\n')).toBe(true);
    const archive = /content: (\S+)/.exec(made?.userData ?? '')?.[1] ?? '';
    expect(gunzipSync(Buffer.from(archive, 'base64')).toString()).toBe('app files');
    expect(made?.userData).toContain('Environment=PORT=8080');
    expect(made?.userData).toContain('ExecStart=/bin/sh -c "exec node server.js"');
    expect(digitalOcean.requests.filter((r) => r.path.startsWith('/v2/actions/'))).toHaveLength(2);

    // Listed with what it cost so far: an hour and a half at $0.00893.
    clock = minutes(90);
    const listed = await serviceAt(digitalOcean.url).list(ada.id, conversationId);
    expect(listed).toEqual({
      deployments: [
        {
          id: row.id,
          droplet_name: 'web-1',
          droplet_ip: '127.0.0.1',
          url: 'http://127.0.0.1:8080',
          environment: 'production',
          size_slug: 's-1vcpu-1gb',
          hourly_cost_usd: 0.00893,
          region: 'nyc3',
          hours_alive: 1.5,
          created_at: START.toISOString(),
          total_cost_usd: 0.013395,
        },
      ],
      total_cost_usd: 0.013395,
    });
  });

  it('charges each whole hour once as droplet usage of the conversation, the rest at deletion, and nothing after', async () => {
    const grace = await signUp(t.app, t.db, 'grace-deploy@acme.example');
    const conversationId = await conversationOf(grace.token);
    clock = START;
    const service = serviceAt(digitalOcean.url);
    const row = await service.deploy(grace.id, app(conversationId));
    clock = minutes(185);
    await service.chargeDue();
    // A second node, or the same one after a restart, charges the same hours again: they count once.
    await serviceAt(digitalOcean.url).chargeDue();
    let charged = await droplets(grace.id);
    expect(charged.map((c) => [c.amountMicros, c.conversationId, c.subcategory])).toEqual([
      [-8_930n, conversationId, 'devops'],
      [-8_930n, conversationId, 'devops'],
      [-8_930n, conversationId, 'devops'],
    ]);

    clock = minutes(200);
    await service.destroy(grace.id, conversationId, 'web-1');
    expect(digitalOcean.deleted.map((d) => d.name)).toContain('web-1');
    clock = minutes(900);
    await service.chargeDue();
    charged = await droplets(grace.id);
    // 200 minutes at $0.00893 an hour, rounded down to the micro-dollar: exactly what was charged.
    expect(charged.reduce((sum, c) => sum - c.amountMicros, 0n)).toBe((8_930n * 200n * 60_000n) / 3_600_000n);
    expect(charged.at(-1)?.description).toBe('Droplet web-1: last 20 min');
    const [gone] = await t.db.select().from(deployments).where(eq(deployments.id, row.id));
    expect(gone?.deletedAt).toEqual(minutes(200));
    expect((await service.list(grace.id, conversationId)).deployments).toEqual([]);
    // The billing history groups them under the conversation's droplet usage.
    const history = await call(
      t.app,
      'GET',
      `/api/auth/transactions/category/${conversationId}?category=droplet&page=1&per_page=10`,
      { token: grace.token },
    );
    expect(history.body?.transactions).toHaveLength(4);
    expect(history.body?.total).toBe(0.029766);
  });

  it('deletes a droplet that never becomes active, and records and charges nothing', async () => {
    const alan = await signUp(t.app, t.db, 'alan-deploy@acme.example');
    const conversationId = await conversationOf(alan.token);
    const failed = serviceAt(stuck.url).deploy(alan.id, app(conversationId, 'never-up'));
    await expect(answered(failed)).rejects.toMatchObject({
      status: 503,
      detail: 'The droplet never-up did not become active within 5 min; it was deleted and nothing was charged.',
    });
    expect(stuck.droplets()).toEqual([]);
    expect(stuck.deleted.map((d) => d.name)).toEqual(['never-up']);
    expect(await t.db.select().from(deployments).where(eq(deployments.conversationId, conversationId))).toEqual([]);
    expect(await droplets(alan.id)).toEqual([]);
  });

  it('names DigitalOcean’s rate limit and its refusals, and refuses a second live deployment of one name', async () => {
    const ken = await signUp(t.app, t.db, 'ken-deploy@acme.example');
    const conversationId = await conversationOf(ken.token);
    const service = serviceAt(digitalOcean.url);
    digitalOcean.rateLimitNext(1);
    await expect(answered(service.deploy(ken.id, app(conversationId)))).rejects.toMatchObject({
      status: 503,
      detail: `DigitalOcean's rate limit is reached until ${new Date(1795000000 * 1000).toISOString()}; try again later.`,
    });
    await expect(answered(service.deploy(ken.id, { ...app(conversationId), name: 'bad name!' }))).rejects.toMatchObject(
      {
        status: 400,
        detail:
          'DigitalOcean refused the droplet: Name Only valid hostname characters are allowed. (a-z, A-Z, 0-9, . and -)',
      },
    );
    await expect(
      answered(service.deploy(ken.id, { ...app(conversationId), size: 'gd-40vcpu-160gb' })),
    ).rejects.toMatchObject({
      status: 400,
      detail: 'DigitalOcean has no size "gd-40vcpu-160gb" available.',
    });
    await service.deploy(ken.id, app(conversationId));
    await expect(answered(service.deploy(ken.id, app(conversationId)))).rejects.toMatchObject({ status: 409 });
    const wrongToken = createDeploymentsService({
      db: t.db,
      provider: digitalOceanProvider({ token: 'revoked', apiUrl: digitalOcean.url, region: 'nyc3', image: 'x' }),
      ownsConversation: async () => true,
    });
    await expect(answered(wrongToken.sizes())).rejects.toMatchObject({
      status: 503,
      detail: "DigitalOcean refused this server's token (Unable to authenticate you); the operator must replace it.",
    });
  });

  it('tears a user’s deployments down after a warning when the balance falls below $0.10', async () => {
    const lin = await signUp(t.app, t.db, 'lin-deploy@acme.example');
    const conversationId = await conversationOf(lin.token);
    const announced: string[] = [];
    const service = serviceAt(digitalOcean.url, announced);
    clock = START;
    await service.deploy(lin.id, { ...app(conversationId), size: 's-2vcpu-4gb' });
    // At $0.03571 an hour: the last hour that leaves $0.20 or more, then the first that leaves less than $0.10.
    const balance = await balanceMicros(t.db, lin.id);
    const hourly = 35_710n;
    clock = minutes(Number((balance - 200_000n) / hourly) * 60 + 1);
    await service.chargeDue();
    expect(announced).toEqual([]);
    expect((await service.list(lin.id, conversationId)).deployments).toHaveLength(1);
    clock = minutes(Number((balance - 100_000n) / hourly + 1n) * 60 + 1);
    await service.chargeDue();
    expect(announced).toEqual([
      `${conversationId}: Your credit balance is below $0.10, so your deployments are being deleted to stop their cost. Buy credits to deploy again.`,
    ]);
    expect((await service.list(lin.id, conversationId)).deployments).toEqual([]);
  });

  it('lists and deletes through the API for the conversation’s owner only', async () => {
    const owner = await signUp(t.app, t.db, 'owner-deploy@acme.example');
    const other = await signUp(t.app, t.db, 'other-deploy@acme.example');
    const conversationId = await conversationOf(owner.token);
    await t.app.modules.deployments.deploy(owner.id, app(conversationId, 'api-1'));
    const list = (token: string) => call(t.app, 'GET', `/api/deployments/${conversationId}`, { token });
    expect((await list(owner.token)).body).toMatchObject({
      deployments: [{ droplet_name: 'api-1', size_slug: 's-1vcpu-1gb', hourly_cost_usd: 0.00893 }],
    });
    expect((await list(other.token)).status).toBe(404);
    const remove = (token: string, name: string) =>
      call(t.app, 'DELETE', `/api/deployments/${conversationId}/${name}`, { token });
    expect((await remove(other.token, 'api-1')).status).toBe(404);
    expect((await remove(owner.token, 'nope')).body).toEqual({
      detail: 'No deployment named nope in this conversation.',
    });
    expect((await remove(owner.token, 'api-1')).body).toEqual({ success: true });
    expect((await list(owner.token)).body).toEqual({ deployments: [], total_cost_usd: 0 });
  });
});

describe('deployments on this machine (no cloud token)', () => {
  it('runs the app sandboxed on a free port at no cost, brings it back after a restart, and removes it', async () => {
    const temp = await tempRuntime({ portRange: [28700, 28799] });
    const log = { errors: [] as string[], error: (_: object, message: string) => void log.errors.push(message) };
    const onThisMachine = () =>
      createDeploymentsService({
        db: t.db,
        provider: localProvider(temp.runtime.apps, freePort),
        ownsConversation: async (userId, conversationId) =>
          Boolean(await t.app.modules.conversations.service.find({ id: userId }, conversationId)),
      });
    try {
      const mia = await signUp(t.app, t.db, 'mia-deploy@acme.example');
      const conversationId = await conversationOf(mia.token);
      const source = mkdtempSync(path.join(os.tmpdir(), 'atelier-deploy-'));
      writeFileSync(
        path.join(source, 'server.js'),
        "require('node:http').createServer((q, s) => s.end('todo app')).listen(Number(process.env.PORT));",
      );
      const archive = execFileSync('tar', ['-czf', '-', '-C', source, '.']);
      rmSync(source, { recursive: true, force: true });
      const request = {
        ...app(conversationId, 'todo'),
        size: 'local',
        app: { archive, start: 'node server.js', port: 0 },
      };
      const row = await onThisMachine().deploy(mia.id, request);
      expect(row).toMatchObject({
        provider: 'local',
        region: 'local',
        sizeSlug: 'local',
        hourlyCostMicros: 0n,
        ip: null,
      });
      const port = new URL(row.url ?? '').port;
      const answer = () => fetch(`http://127.0.0.1:${port}/`).then((r) => r.text());
      expect(await answer()).toBe('todo app');

      // The server stops (its apps with it) and starts again: the deployment comes back on its port.
      await temp.runtime.stopAll();
      await expect(answer()).rejects.toThrow();
      await onThisMachine().restore(log);
      expect(log.errors).toEqual([]);
      expect(await answer()).toBe('todo app');

      const later = onThisMachine();
      expect((await later.list(mia.id, conversationId)).deployments).toMatchObject([
        { droplet_name: 'todo', size_slug: 'local', hourly_cost_usd: 0, total_cost_usd: 0 },
      ]);
      await later.destroy(mia.id, conversationId, 'todo');
      await expect(answer()).rejects.toThrow();
      await later.chargeDue();
      expect(await droplets(mia.id)).toEqual([]);
      await expect(answered(later.deploy(mia.id, { ...request, size: 's-1vcpu-1gb' }))).rejects.toMatchObject({
        status: 400,
        detail: 'This server deploys on itself: its only size is "local".',
      });
    } finally {
      await temp.cleanup();
    }
  }, 60_000);
});

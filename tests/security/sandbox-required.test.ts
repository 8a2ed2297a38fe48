import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalRuntime } from '../../server/runtime/local-runtime.ts';
import { call, withTestApp } from '../support/app.ts';
import { signUp, waitFor } from '../support/conversations.ts';
import type { Event } from '../../openapi/types.ts';

// The hosted service on a machine without bubblewrap and pasta: the server starts and serves, but
// no conversation runs unconfined; its status says what is missing and how to install it.

const empty = mkdtempSync(path.join(os.tmpdir(), 'atelier-no-sandbox-'));
afterAll(() => rmSync(empty, { recursive: true, force: true }));

const t = withTestApp(
  { APP_MODE: 'saas' },
  {
    // A runtime that finds no sandbox: it looks for its programs on PATH as it is made.
    runtime: () => {
      const kept = process.env.PATH;
      process.env.PATH = empty;
      try {
        return new LocalRuntime({
          rootDir: path.join(empty, 'workspaces'),
          requireIsolation: true,
          logger: { warn: () => undefined, info: () => undefined },
        });
      } finally {
        process.env.PATH = kept;
      }
    },
  },
);

describe('a hosted server without the sandbox', () => {
  it('starts, but starts no conversation, and says what to install', async () => {
    expect((await t.app.http.inject({ method: 'GET', url: '/health' })).statusCode).toBe(200);
    const user = await signUp(t.app, t.db, 'careful@acme.example');
    const created = await call(t.app, 'POST', '/api/conversations', { token: user.token, body: {} });
    expect(created.status).toBe(200);
    const id = created.body?.conversation_id as string;
    const events = await waitFor(
      async () =>
        ((await call(t.app, 'GET', `/api/conversations/${id}/events?limit=50`, { token: user.token })).body?.events ??
          []) as Event[],
      (found) => found.some((event) => event.status_id === 'STATUS$ERROR_SANDBOX_UNAVAILABLE'),
      20_000,
      'the refusal',
    );
    const refusal = events.find((event) => event.status_id === 'STATUS$ERROR_SANDBOX_UNAVAILABLE');
    expect(refusal).toMatchObject({
      type: 'error',
      message: expect.stringMatching(/apt-get install bubblewrap passt/),
    });
    expect((await call(t.app, 'GET', `/api/conversations/${id}`, { token: user.token })).body?.status).toBe('STOPPED');
  });
});

import { afterAll, beforeAll, expect } from 'vitest';
import { parseConfig } from '../../server/config.ts';
import type { Db } from '../../server/db/index.ts';
import { buildApp, type App, type AppOptions } from '../../server/http/app.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';
import { sandboxTestEnv } from './sandbox.ts';

/**
 * An in-process app on a private database for one test file, with contract checking on:
 * after the file's tests every answer must have matched openapi/atelier.yaml.
 */
/** `env` may be a function, read when the app starts: for settings known only after earlier hooks (a test server's port). */
export function withTestApp(
  env: Record<string, string> | (() => Record<string, string>) = {},
  options: Pick<AppOptions, 'agentFactory' | 'webRoot'> & { runtime?: () => AppOptions['runtime'] } = {},
) {
  const state = {} as { app: App; database: TestDatabase; db: Db };
  beforeAll(async () => {
    state.database = await createTestDatabase();
    const config = parseConfig({
      LOG_LEVEL: 'silent',
      DATA_DIR: state.database.dataDir,
      ...sandboxTestEnv(),
      ...(typeof env === 'function' ? env() : env),
    });
    const database = await state.database.open();
    state.db = database.db;
    const { runtime, ...rest } = options;
    state.app = await buildApp({ config, database, validateResponses: true, ...rest, runtime: runtime?.() });
    state.app.http.addHook('onClose', () => database.close());
  });
  afterAll(async () => {
    const violations = state.app?.contract?.violations ?? [];
    await state.app?.http.close();
    await state.database?.destroy();
    expect(violations).toEqual([]);
  });
  return state;
}

/** JSON request helper over Fastify's inject. */
export async function call(
  app: App,
  method: string,
  url: string,
  options: { body?: unknown; token?: string; ip?: string; headers?: Record<string, string> } = {},
) {
  const response = await app.http.inject({
    method: method as 'GET',
    url,
    payload: options.body as object | undefined,
    headers: { ...options.headers, ...(options.token && { authorization: `Bearer ${options.token}` }) },
    remoteAddress: options.ip ?? '127.0.0.1',
  });
  const text = response.body;
  return {
    status: response.statusCode,
    headers: response.headers,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : undefined,
  };
}

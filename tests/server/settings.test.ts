import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { call, withTestApp } from '../support/app.ts';
import { createRunning, listen, signUp, SocketClient } from '../support/conversations.ts';

const t = withTestApp();
let user: { token: string; id: string };
let other: { token: string; id: string };

beforeAll(async () => {
  user = await signUp(t.app, t.db, 'settings@acme.example');
  other = await signUp(t.app, t.db, 'other-settings@acme.example');
});

/** What the database holds, as text: secrets must not appear in it. */
async function stored(table: string): Promise<string> {
  const result = await t.db.execute(sql.raw(`select * from ${table}`));
  return JSON.stringify((result as unknown as { rows: unknown[] }).rows);
}

describe('settings', () => {
  it('answers 404 until the first save, then the defaults under what was saved', async () => {
    expect((await call(t.app, 'GET', '/api/settings', { token: user.token })).status).toBe(404);
    expect((await call(t.app, 'POST', '/api/settings', { token: user.token, body: { language: 'de' } })).body).toEqual({
      success: true,
    });
    const settings = await call(t.app, 'GET', '/api/settings', { token: user.token });
    expect(settings.body).toEqual({
      llm_model: 'anthropic/claude-sonnet-4-20250514',
      llm_base_url: null,
      agent: 'CodeActAgent',
      language: 'de',
      confirmation_mode: false,
      security_analyzer: null,
      llm_api_key_set: false,
      search_api_key_set: false,
      search_api_key: null,
      remote_runtime_resource_factor: 1,
      provider_tokens_set: { github: false, gitlab: false, bitbucket: false },
      enable_default_condenser: true,
      enable_sound_notifications: false,
      enable_proactive_conversation_starters: false,
      user_consents_to_analytics: false,
      max_budget_per_task: null,
      email: 'settings@acme.example',
      email_verified: true,
      is_new_user: true,
      mcp_config: { sse_servers: [], stdio_servers: [] },
      git_user_name: 'atelier',
      git_user_email: 'atelier@localhost.localdomain',
    });
    expect((await call(t.app, 'GET', '/api/settings', { token: other.token })).status).toBe(404);
  });

  it('refuses two MCP servers of one name, and keeps what was saved', async () => {
    const saved = { sse_servers: [], stdio_servers: [{ name: 'fetch', command: 'uvx', args: ['mcp-server-fetch'] }] };
    await call(t.app, 'POST', '/api/settings', { token: other.token, body: { mcp_config: saved } });
    const twice = await call(t.app, 'POST', '/api/settings', {
      token: other.token,
      body: {
        mcp_config: {
          sse_servers: [],
          stdio_servers: [
            { name: 'fetch', command: 'uvx', args: ['mcp-server-fetch'] },
            { name: 'fetch ', command: 'npx', args: ['other'] },
          ],
        },
      },
    });
    expect(twice.status).toBe(422);
    expect(JSON.stringify(twice.body)).toContain('Two MCP servers are named fetch: give each its own name.');
    expect((await call(t.app, 'GET', '/api/settings', { token: other.token })).body?.mcp_config).toEqual(saved);
  });

  it("takes OpenHands' shttp_servers, and refuses a timeout outside 1-3600 s", async () => {
    const mcp = {
      sse_servers: [],
      stdio_servers: [],
      shttp_servers: ['https://a.example/mcp', { url: 'https://b.example/mcp', api_key: 'k', timeout: 120 }],
    };
    expect((await call(t.app, 'POST', '/api/settings', { token: other.token, body: { mcp_config: mcp } })).status).toBe(
      200,
    );
    expect((await call(t.app, 'GET', '/api/settings', { token: other.token })).body?.mcp_config).toEqual(mcp);
    const tooLong = { ...mcp, shttp_servers: [{ url: 'https://b.example/mcp', timeout: 3601 }] };
    const refused = await call(t.app, 'POST', '/api/settings', { token: other.token, body: { mcp_config: tooLong } });
    expect(refused.status).toBe(422);
    expect((await call(t.app, 'GET', '/api/settings', { token: other.token })).body?.mcp_config).toEqual(mcp);
  });

  it('keeps keys write-only and encrypted, and changes only the fields sent', async () => {
    const mcp = {
      sse_servers: ['https://mcp.acme.example/sse'],
      stdio_servers: [{ name: 'fetch', command: 'uvx', args: ['mcp-server-fetch'] }],
    };
    await call(t.app, 'POST', '/api/settings', {
      token: user.token,
      body: {
        llm_model: 'openai/gpt-4o',
        llm_api_key: 'sk-very-secret-key',
        search_api_key: 'search-secret',
        max_budget_per_task: 2.5,
        confirmation_mode: true,
        security_analyzer: 'llm',
        mcp_config: mcp,
        provider_tokens: { github: { token: 'ghp_secret_token' } },
      },
    });
    const settings = (await call(t.app, 'GET', '/api/settings', { token: user.token })).body;
    expect(settings).toMatchObject({
      llm_model: 'openai/gpt-4o',
      language: 'de',
      llm_api_key_set: true,
      search_api_key_set: true,
      search_api_key: null,
      max_budget_per_task: 2.5,
      confirmation_mode: true,
      security_analyzer: 'llm',
      mcp_config: mcp,
      provider_tokens_set: { github: true, gitlab: false, bitbucket: false },
    });
    expect(JSON.stringify(settings)).not.toContain('secret');
    for (const table of ['user_settings', 'provider_tokens']) {
      const text = await stored(table);
      expect(text).not.toContain('sk-very-secret-key');
      expect(text).not.toContain('ghp_secret_token');
    }

    // Null leaves a saved key as it is; an empty string clears it (spec §5).
    await call(t.app, 'POST', '/api/settings', {
      token: user.token,
      body: { llm_api_key: null, search_api_key: null },
    });
    expect((await call(t.app, 'GET', '/api/settings', { token: user.token })).body).toMatchObject({
      llm_api_key_set: true,
      search_api_key_set: true,
    });
    await call(t.app, 'POST', '/api/settings', {
      token: user.token,
      body: { llm_api_key: '', provider_tokens: { github: { token: null } } },
    });
    expect((await call(t.app, 'GET', '/api/settings', { token: user.token })).body).toMatchObject({
      llm_api_key_set: false,
      search_api_key_set: true,
      provider_tokens_set: { github: false },
    });
    await call(t.app, 'POST', '/api/settings', {
      token: user.token,
      body: { provider_tokens: { gitlab: { token: 'glpat-x', host: 'gitlab.acme.example' } } },
    });
    expect((await call(t.app, 'POST', '/api/unset-provider-tokens', { token: user.token })).body).toEqual({
      success: true,
    });
    expect((await call(t.app, 'GET', '/api/settings', { token: user.token })).body?.provider_tokens_set).toEqual({
      github: false,
      gitlab: false,
      bitbucket: false,
    });
    expect((await call(t.app, 'POST', '/api/settings', { token: user.token, body: { unknown_field: 1 } })).status).toBe(
      422,
    );
  });

  it('lists the options of the settings screens', async () => {
    const models = (await call(t.app, 'GET', '/api/options/models')).body as unknown as string[];
    expect(models[0]).toBe('anthropic/claude-sonnet-4-20250514');
    expect(models).toContain('openai/gpt-4o');
    expect((await call(t.app, 'GET', '/api/options/agents')).body).toEqual(['CodeActAgent']);
    expect((await call(t.app, 'GET', '/api/options/security-analyzers')).body).toEqual(['llm']);
  });
});

describe('custom secrets', () => {
  it('are listed without values, renamed, refused twice, deleted, and never stored in clear', async () => {
    const create = (name: string, value: string) =>
      call(t.app, 'POST', '/api/secrets', { token: user.token, body: { name, value, description: `the ${name}` } });
    expect((await create('STRIPE_KEY', 'sk_test_cleartext')).status).toBe(200);
    expect((await create('STRIPE_KEY', 'again')).status).toBe(409);
    expect((await create('PATH', '/tmp')).status).toBe(422);
    expect((await create('bad name', 'x')).status).toBe(422);
    expect((await call(t.app, 'GET', '/api/secrets', { token: user.token })).body).toEqual({
      custom_secrets: [{ name: 'STRIPE_KEY', description: 'the STRIPE_KEY' }],
    });
    expect(await stored('custom_secrets')).not.toContain('sk_test_cleartext');
    expect((await call(t.app, 'GET', '/api/secrets', { token: other.token })).body).toEqual({ custom_secrets: [] });
    expect(
      (await call(t.app, 'PUT', '/api/secrets/STRIPE_KEY', { token: other.token, body: { value: 'stolen' } })).status,
    ).toBe(404);

    expect(
      (
        await call(t.app, 'PUT', '/api/secrets/STRIPE_KEY', {
          token: user.token,
          body: { name: 'PAYMENT_KEY', value: 'sk_live_rotated' },
        })
      ).status,
    ).toBe(200);
    await create('OTHER_KEY', 'x');
    expect(
      (await call(t.app, 'PUT', '/api/secrets/OTHER_KEY', { token: user.token, body: { name: 'PAYMENT_KEY' } })).status,
    ).toBe(409);
    expect((await call(t.app, 'DELETE', '/api/secrets/OTHER_KEY', { token: user.token })).status).toBe(200);
    expect((await call(t.app, 'DELETE', '/api/secrets/OTHER_KEY', { token: user.token })).status).toBe(404);
    expect((await call(t.app, 'GET', '/api/secrets', { token: user.token })).body).toEqual({
      custom_secrets: [{ name: 'PAYMENT_KEY', description: 'the STRIPE_KEY' }],
    });
  });

  it('reach the runtime as environment variables', async () => {
    const conversation = await createRunning(t.app, user.token);
    const socket = await SocketClient.open(
      await listen(t.app),
      { conversation_id: conversation.conversation_id },
      { authorization: `Bearer ${user.token}` },
    );
    socket.send({ action: 'run', args: { command: 'echo "[$PAYMENT_KEY]" "$GIT_AUTHOR_NAME"', hidden: true } });
    await socket.waitFor((s) => s.events.some((e) => e.observation === 'run'));
    expect(socket.events.find((e) => e.observation === 'run')?.content).toContain('[sk_live_rotated] atelier');
    await socket.close();
    await call(t.app, 'POST', `/api/conversations/${conversation.conversation_id}/stop`, { token: user.token });
  });
});

describe('saved layouts', () => {
  it('are saved by trimmed name, replaced, listed per user and deleted', async () => {
    const layout = { global: {}, layout: { type: 'row', children: [] } };
    const saved = await call(t.app, 'PUT', `/api/user/layouts/${encodeURIComponent('  Review  ')}`, {
      token: user.token,
      body: { layout },
    });
    expect(saved.body).toMatchObject({ name: 'Review', layout });
    await call(t.app, 'PUT', '/api/user/layouts/Review', {
      token: user.token,
      body: { layout: { ...layout, global: { tabEnableClose: false } } },
    });
    const list = (await call(t.app, 'GET', '/api/user/layouts', { token: user.token })).body?.layouts as {
      name: string;
      layout: { global: unknown };
    }[];
    expect(list).toEqual([
      expect.objectContaining({
        name: 'Review',
        layout: expect.objectContaining({ global: { tabEnableClose: false } }),
      }),
    ]);
    expect((await call(t.app, 'GET', '/api/user/layouts', { token: other.token })).body).toEqual({ layouts: [] });
    const huge = { blob: 'x'.repeat(300 * 1024) };
    expect(
      (await call(t.app, 'PUT', '/api/user/layouts/Huge', { token: user.token, body: { layout: huge } })).status,
    ).toBe(413);
    expect((await call(t.app, 'DELETE', '/api/user/layouts/Review', { token: other.token })).status).toBe(404);
    expect((await call(t.app, 'DELETE', '/api/user/layouts/Review', { token: user.token })).body).toEqual({
      success: true,
    });
    expect((await call(t.app, 'GET', '/api/user/layouts', { token: user.token })).body).toEqual({ layouts: [] });
  });
});

import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../../server/cli/main.ts';
import { finishReply, titleReply } from '../agent/scenario.ts';
import { isAgentState, SocketClient, waitFor } from '../support/conversations.ts';
import { verificationToken } from '../support/mail.ts';
import { FakeLlm } from '../support/fake-llm/index.ts';
import { startServer, type RunningServer } from '../support/server.ts';
import type { Conversation } from '../../openapi/types.ts';

// A whole session at the most verbose log level, then every secret it used is looked for in the log.
const secret = (prefix: string) => `${prefix}${randomBytes(12).toString('hex')}`;
const llmKey = secret('sk-llm-');
const password = secret('pw-');
const githubToken = secret('ghp_');
const secretValue = secret('value-');

let llm: FakeLlm;
let server: RunningServer;
beforeAll(async () => {
  llm = new FakeLlm();
  const baseUrl = await llm.start();
  server = await startServer({
    env: {
      LOG_LEVEL: 'trace',
      LLM_PROVIDER: 'openai-compatible',
      LLM_MODEL: 'fake-model',
      LLM_BASE_URL: baseUrl,
      LLM_API_KEY: llmKey,
    },
  });
});
afterAll(async () => {
  await server?.destroy();
  await llm?.stop();
});

async function api<T = Record<string, unknown>>(
  method: string,
  url: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
): Promise<T> {
  const response = await fetch(`${server.url}${url}`, {
    method,
    headers: { ...(options.body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

const cardNumber = '4000056655665556';
const securityCode = '9173';

describe('the server log', () => {
  it('holds no token, key, password or secret value used in a whole session', async () => {
    const email = 'logged@acme.example';
    await api('POST', '/api/auth/register', { body: { name: 'Logged', email, password } });
    const { access_token: token } = await api<{ access_token: string }>('POST', '/api/auth/login', {
      body: { email, password, remember_me: true },
    });
    const bearer = { authorization: `Bearer ${token}` };
    process.env.DATA_DIR = server.database.dataDir;
    if (server.database.databaseUrl) process.env.DATABASE_URL = server.database.databaseUrl;
    // Onboarding's card: its number and security code must never be logged either.
    const { contact_information: contact } = await api<{ contact_information: { id: string } }>(
      'POST',
      '/api/atelier/onboarding/save-contact-information',
      {
        headers: bearer,
        body: {
          organization_name: 'Acme',
          legal_name: 'L',
          street_address: 'S',
          city: 'C',
          province: 'P',
          postal_code: '1',
        },
      },
    );
    await api('POST', '/api/atelier/onboarding/save-payment-information', {
      headers: bearer,
      body: {
        contact_information_id: contact.id,
        card_number: cardNumber,
        expiry_date: '12/35',
        security_code: securityCode,
        cardholder_name: 'L',
        same_billing_address: true,
      },
    });
    // A card refused by the contract (its answer names the field, never the value) and by the provider.
    for (const card_number of [`${cardNumber}x`, '4000000000000002'])
      await fetch(`${server.url}/api/atelier/onboarding/save-payment-information`, {
        method: 'POST',
        headers: { ...bearer, 'content-type': 'application/json' },
        body: JSON.stringify({
          contact_information_id: contact.id,
          card_number,
          expiry_date: '12/35',
          security_code: securityCode,
          cardholder_name: 'L',
          same_billing_address: true,
        }),
      });
    expect(await runAdmin(['activate-user', email], () => {})).toBe(0);
    const outbox: string[] = [];
    expect(await runAdmin(['outbox'], (line) => outbox.push(line))).toBe(0);
    const verificationLink = verificationToken(outbox.join('\n'));
    await api('POST', '/api/auth/verify-email', { body: { token: verificationLink } });
    expect(await runAdmin(['grant-credits', email, '5'], () => {})).toBe(0);

    // The claim page's card check, and a purchase with the saved card.
    await fetch(`${server.url}/api/auth/claim`, {
      method: 'POST',
      headers: { ...bearer, 'content-type': 'application/json' },
      body: JSON.stringify({
        card_number: cardNumber,
        expiry_date: '12/35',
        security_code: securityCode,
        card_holder_name: 'L',
        billing_address: 'S',
        acceptTerms: true,
      }),
    });
    await api('POST', '/api/auth/purchase-credits', {
      headers: { ...bearer, 'Idempotency-Key': 'logged-1' },
      body: { amount: 5 },
    });
    await api('POST', '/api/settings', {
      headers: bearer,
      body: { provider_tokens: { github: { token: githubToken } } },
    });
    await api('POST', '/api/secrets', {
      headers: bearer,
      body: { name: 'DEPLOY_KEY', value: secretValue, description: 'deploys' },
    });

    llm.enqueue(titleReply, finishReply);
    const { conversation_id: id } = await api<{ conversation_id: string }>('POST', '/api/conversations', {
      headers: bearer,
      body: { initial_user_msg: 'Say done' },
    });
    const running = await waitFor(
      () => api<Conversation>('GET', `/api/conversations/${id}`, { headers: bearer }),
      (c) => c.status === 'RUNNING',
      30_000,
      'RUNNING',
    );
    const sessionKey = running.session_api_key as string;
    expect(sessionKey).toBeTruthy();

    const byToken = await SocketClient.open(server.url, {
      conversation_id: id,
      latest_event_id: -1,
      auth_token: token,
    });
    const byKey = await SocketClient.open(server.url, {
      conversation_id: id,
      latest_event_id: -1,
      session_api_key: sessionKey,
    });
    await byToken.waitFor((c) => c.events.some(isAgentState('FINISHED')), 'the agent to finish', 30_000);
    await api('GET', `/api/conversations/${id}/list-files`, { headers: { 'X-Session-API-Key': sessionKey } });
    await byToken.close();
    await byKey.close();
    await api('POST', `/api/conversations/${id}/stop`, { headers: bearer });
    await api('POST', '/api/auth/logout', { headers: bearer });

    const log = server.output();
    // The log did record the socket connections and the calls: it is the level, not silence, that is being checked.
    expect(log).toContain('"url":"/socket?conversation_id=');
    expect(log).toContain('auth_token=[redacted]');
    expect(log).toContain('session_api_key=[redacted]');
    expect(log).toContain('/api/auth/claim');
    for (const [name, value] of Object.entries({
      token,
      sessionKey,
      llmKey,
      password,
      githubToken,
      secretValue,
      verificationLink,
      cardNumber,
      securityCode,
    })) {
      // A whole value, not digits inside a timestamp or a duration (a 4-digit code turns up in those by chance).
      const whole = new RegExp(`(?<![\\w.])${value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w])`);
      expect(whole.test(log), `the log holds the ${name}`).toBe(false);
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, withTestApp } from '../support/app.ts';
import { signUp } from '../support/conversations.ts';
import { FakeLlm, reply } from '../support/fake-llm/index.ts';

const llm = new FakeLlm('fake-model');
let baseUrl = '';
beforeAll(async () => {
  baseUrl = await llm.start();
});
afterAll(() => llm.stop());

const oss = withTestApp({ APP_MODE: 'oss' });
const saas = withTestApp();
const test = (body: Record<string, unknown>) => call(oss.app, 'POST', '/api/settings/test-connection', { body });
const lastKey = () => llm.requests.at(-1)?.headers.authorization;

describe('testing a model connection (oss mode)', () => {
  it('answers what the model said, sending the entered key to the entered base URL', async () => {
    llm.enqueue(reply.text(' OK '));
    const answer = await test({ llm_model: 'openai/fake-model', llm_base_url: baseUrl, llm_api_key: ' sk-typed ' });
    expect(answer).toMatchObject({ status: 200, body: { ok: true, answer: 'OK' } });
    expect(lastKey()).toBe('Bearer sk-typed');
    expect(llm.completions.at(-1)?.model).toBe('fake-model');
  });

  it('answers the provider’s error, so a wrong key shows before the first conversation', async () => {
    llm.enqueue(reply.error(401, 'Incorrect API key provided: sk-wrong.'));
    const answer = await test({ llm_model: 'openai/fake-model', llm_base_url: baseUrl, llm_api_key: 'sk-wrong' });
    expect(answer.status).toBe(200);
    expect(answer.body?.ok).toBe(false);
    expect(String(answer.body?.error)).toContain('Incorrect API key provided');
  });

  it('uses the saved key when none is entered, and says when a model cannot be called', async () => {
    await call(oss.app, 'POST', '/api/settings', { body: { llm_api_key: 'sk-saved' } });
    llm.enqueue(reply.text('OK'));
    expect((await test({ llm_model: 'openai/fake-model', llm_base_url: baseUrl, llm_api_key: null })).body).toEqual({
      ok: true,
      answer: 'OK',
    });
    expect(lastKey()).toBe('Bearer sk-saved');
    const unreachable = await test({ llm_model: 'ollama/llama3' });
    expect(unreachable.body).toEqual({
      ok: false,
      error:
        'ollama/llama3 is not a model Atelier can call directly: give the base URL of its OpenAI-compatible server.',
    });
  });

  it('is not offered on the hosted service, where the operator’s model runs', async () => {
    const { token } = await signUp(saas.app, saas.db, 'tester@acme.example');
    const requests = llm.requests.length;
    const answer = await call(saas.app, 'POST', '/api/settings/test-connection', {
      token,
      body: { llm_model: 'openai/fake-model', llm_base_url: baseUrl },
    });
    expect(answer).toMatchObject({ status: 404, body: { detail: 'Testing a model is for self-hosted installations' } });
    expect(llm.requests.length).toBe(requests);
  });
});

import { afterAll, describe, expect, it } from 'vitest';
import { createActor, fromPromise, type AnyEventObject } from 'xstate';
import {
  modelForm,
  modelFormErrors,
  modelIdOf,
  COMPATIBLE_PROVIDER,
  PROVIDER_NAMES,
  modelSettingsPayload,
  opensAdvancedOnLoad,
  providersOf,
  splitModelId,
  type Settings,
  type SettingsUpdate,
} from '../../machines/model-settings.ts';
import {
  selectCanSave,
  selectIsConfirmingEndSession,
  selectNeverSaved,
  settingsFormMachine,
  type SettingsFormContext,
  type SettingsFormEvent,
} from '../../machines/settings-form.ts';
import {
  Coverage,
  describePath,
  pathsThroughEveryEdge,
  runPath,
  withoutPrefixPaths,
  type FakeSideEffects,
  type StepRecord,
} from './model-paths.ts';

const KNOWN = ['anthropic/claude-sonnet-4-20250514', 'anthropic/claude-opus-4-20250514', 'openai/gpt-4o'];
const saved = {
  llm_model: 'openai/gpt-4o',
  llm_base_url: null,
  agent: 'CodeActAgent',
  confirmation_mode: false,
  security_analyzer: null,
  llm_api_key_set: true,
  enable_default_condenser: true,
  remote_runtime_resource_factor: 1,
} as Settings;

const events: (SettingsFormEvent | AnyEventObject)[] = [
  { type: 'xstate.done.actor.loadSettings', output: saved },
  { type: 'xstate.done.actor.loadSettings', output: null },
  { type: 'xstate.error.actor.loadSettings', error: new TypeError('Failed to fetch') },
  { type: 'CHANGE', field: 'model', value: '' },
  { type: 'CHANGE', field: 'apiKey', value: ' sk-new ' },
  { type: 'SET_ADVANCED', advanced: true },
  { type: 'CLEAR_KEY' },
  { type: 'SAVE' },
  { type: 'CONFIRM' },
  { type: 'CANCEL' },
  { type: 'xstate.done.actor.saveSettings' },
  { type: 'xstate.error.actor.saveSettings', error: new TypeError('Failed to fetch') },
];

const fakes: FakeSideEffects = { promises: ['loadSettings', 'saveSettings'], callbacks: {}, actions: [] };

function expectStep({ event, before, after, started }: StepRecord) {
  const context = before.context as SettingsFormContext;
  for (const { src, input } of started) {
    if (src === 'saveSettings') expect(input).toEqual(modelSettingsPayload(context.form, context.advanced));
  }
  if (event.type === 'SAVE') {
    // Save does nothing until something changed, and never sends an invalid form.
    if (!selectCanSave(before as never)) expect(after.value).toEqual(before.value);
    if (Object.keys(modelFormErrors(context.form, context.advanced)).length > 0) {
      expect(started).toEqual([]);
      expect(Object.keys((after.context as SettingsFormContext).errors).length).toBeGreaterThan(0);
    }
  }
  if (selectIsConfirmingEndSession(after as never)) expect(context.inConversation).toBe(true);
  if (event.type === 'xstate.done.actor.saveSettings') {
    expect(selectCanSave(after as never)).toBe(false);
    expect((after.context as SettingsFormContext).keySet).toBe(
      !context.form.clearApiKey && (context.keySet || context.form.apiKey.trim() !== ''),
    );
  }
  if (event.type === 'xstate.error.actor.saveSettings') expect(selectCanSave(after as never)).toBe(true);
  if (event.type === 'xstate.done.actor.loadSettings')
    expect(selectNeverSaved(after as never)).toBe((event as unknown as { output: unknown }).output === null);
}

const coverage = new Coverage(settingsFormMachine);
let pathCount = 0;

describe('settings form machine, every edge of its graph', () => {
  for (const inConversation of [false, true]) {
    const input = { knownModels: KNOWN, inConversation };
    describe(inConversation ? 'inside a running conversation' : 'on the settings page', () => {
      const paths = withoutPrefixPaths(pathsThroughEveryEdge(settingsFormMachine, { events, input }));
      pathCount += paths.length;
      it.each(paths.map((path) => [describePath(path), path] as const))('%s', async (_name, path) => {
        const reached = await runPath(settingsFormMachine, path, { fakes, input, coverage, expectStep });
        expect(reached.value).toEqual(path.state.value);
        if (!inConversation) expect(path.steps.some((step) => step.event.type === 'CONFIRM')).toBe(false);
      });
    });
  }

  it('reaches every state and takes every transition of the definition', () => {
    expect(coverage.missing()).toEqual({ states: [], transitions: [] });
  });

  afterAll(() => console.log(coverage.summary(pathCount)));
});

describe('model settings rules (spec §3, §4, §5)', () => {
  it('splits a model id on the first "/", or on "." after a provider written that way', () => {
    expect(splitModelId('anthropic/claude-sonnet-4-20250514')).toEqual({
      provider: 'anthropic',
      model: 'claude-sonnet-4-20250514',
    });
    expect(splitModelId('openrouter/meta/llama-3')).toEqual({ provider: 'openrouter', model: 'meta/llama-3' });
    expect(splitModelId('anthropic.claude-3-5-sonnet')).toEqual({ provider: 'anthropic', model: 'claude-3-5-sonnet' });
    expect(splitModelId('gpt-4.1')).toEqual({ provider: '', model: 'gpt-4.1' });
    expect([...providersOf(KNOWN)]).toEqual([
      ['anthropic', ['claude-sonnet-4-20250514', 'claude-opus-4-20250514']],
      ['openai', ['gpt-4o']],
    ]);
  });

  it('starts from the spec defaults when nothing is saved, in basic mode', () => {
    const form = modelForm(null);
    expect(form).toMatchObject({
      provider: 'anthropic',
      model: 'claude-sonnet-4-20250514',
      agent: 'CodeActAgent',
      confirmationMode: false,
      enableDefaultCondenser: true,
      resourceFactor: 1,
    });
    expect(opensAdvancedOnLoad(form, KNOWN)).toBe(false);
  });

  it('opens advanced on load for an unknown model or any advanced value not at its default', () => {
    expect(opensAdvancedOnLoad(modelForm({ ...saved, llm_model: 'ollama/llama3' }), KNOWN)).toBe(true);
    expect(opensAdvancedOnLoad(modelForm({ ...saved, llm_base_url: 'http://localhost:11434/v1' }), KNOWN)).toBe(true);
    expect(opensAdvancedOnLoad(modelForm({ ...saved, agent: 'BrowsingAgent' }), KNOWN)).toBe(true);
    expect(opensAdvancedOnLoad(modelForm({ ...saved, confirmation_mode: true }), KNOWN)).toBe(true);
    expect(opensAdvancedOnLoad(modelForm({ ...saved, enable_default_condenser: false }), KNOWN)).toBe(true);
    expect(opensAdvancedOnLoad(modelForm({ ...saved, remote_runtime_resource_factor: 2 }), KNOWN)).toBe(true);
    expect(opensAdvancedOnLoad(modelForm(saved), KNOWN)).toBe(false);
  });

  it('requires a provider and a model in basic mode, a model in advanced mode', () => {
    const form = modelForm(saved);
    expect(modelFormErrors({ ...form, provider: '', model: ' ' }, false)).toEqual({
      provider: 'providerRequired',
      model: 'modelRequired',
    });
    expect(modelFormErrors({ ...form, customModel: '' }, true)).toEqual({ customModel: 'modelRequired' });
    expect(modelFormErrors(form, false)).toEqual({});
  });

  it('builds provider/model in basic mode and resets the advanced values to their defaults', () => {
    const form = {
      ...modelForm(saved),
      provider: 'anthropic',
      model: 'claude-opus-4-20250514',
      baseUrl: 'http://x',
      agent: 'Other',
      confirmationMode: true,
      securityAnalyzer: 'llm',
      resourceFactor: 4 as const,
    };
    expect(modelSettingsPayload(form, false)).toEqual<SettingsUpdate>({
      llm_model: 'anthropic/claude-opus-4-20250514',
      llm_base_url: null,
      llm_api_key: null,
      agent: 'CodeActAgent',
      confirmation_mode: false,
      enable_default_condenser: true,
      remote_runtime_resource_factor: 1,
    });
  });

  it('offers an OpenAI-compatible server in basic mode: a model name and a base URL, saved as openai/<model>', () => {
    const form = { ...modelForm(saved), provider: COMPATIBLE_PROVIDER, model: ' llama3.1 ', baseUrl: '' };
    expect(modelFormErrors(form, false)).toEqual({ baseUrl: 'baseUrlRequired' });
    const payload = modelSettingsPayload({ ...form, baseUrl: ' http://localhost:11434/v1 ' }, false);
    expect(payload).toMatchObject({ llm_model: 'openai/llama3.1', llm_base_url: 'http://localhost:11434/v1' });
    expect(modelIdOf('anthropic', 'claude-opus-4-20250514')).toBe('anthropic/claude-opus-4-20250514');
    // Another basic provider drops a base URL typed for the compatible one.
    expect(
      modelSettingsPayload({ ...form, provider: 'openai', model: 'gpt-4o', baseUrl: 'http://x' }, false),
    ).toMatchObject({ llm_model: 'openai/gpt-4o', llm_base_url: null });
    expect(PROVIDER_NAMES['mistral']).toBe('Mistral AI');
  });

  it('applies the advanced values in advanced mode, the analyzer only with confirmation mode', () => {
    const form = {
      ...modelForm(saved),
      customModel: ' ollama/llama3 ',
      baseUrl: ' http://localhost:11434/v1 ',
      agent: 'CodeActAgent',
      confirmationMode: true,
      securityAnalyzer: 'llm',
      enableDefaultCondenser: false,
      resourceFactor: 2 as const,
    };
    expect(modelSettingsPayload(form, true)).toEqual<SettingsUpdate>({
      llm_model: 'ollama/llama3',
      llm_base_url: 'http://localhost:11434/v1',
      llm_api_key: null,
      agent: 'CodeActAgent',
      confirmation_mode: true,
      security_analyzer: 'llm',
      enable_default_condenser: false,
      remote_runtime_resource_factor: 2,
    });
    expect(modelSettingsPayload({ ...form, confirmationMode: false }, true)).not.toHaveProperty('security_analyzer');
  });

  it('trims the key and sends null when empty (kept), an empty string when removed; the search key only once changed, as typed', () => {
    const form = modelForm(saved);
    expect(modelSettingsPayload({ ...form, apiKey: '  sk-1  ' }, false).llm_api_key).toBe('sk-1');
    expect(modelSettingsPayload({ ...form, apiKey: '   ' }, false).llm_api_key).toBeNull();
    expect(modelSettingsPayload({ ...form, clearApiKey: true }, false).llm_api_key).toBe('');
    expect(modelSettingsPayload(form, false)).not.toHaveProperty('search_api_key');
    expect(modelSettingsPayload({ ...form, searchApiKey: '', searchApiKeyChanged: true }, false).search_api_key).toBe(
      '',
    );
    expect(
      modelSettingsPayload({ ...form, searchApiKey: ' tv-1 ', searchApiKeyChanged: true }, false).search_api_key,
    ).toBe('tv-1');
  });

  it('starts a newly chosen provider on its first model, and splits a typed model id', async () => {
    const actor = createActor(
      settingsFormMachine.provide({ actors: { loadSettings: fromPromise<Settings | null, void>(async () => saved) } }),
      { input: { knownModels: KNOWN, inConversation: false } },
    ).start();
    await new Promise((resolve) => setTimeout(resolve, 0));
    actor.send({ type: 'CHANGE', field: 'provider', value: 'anthropic' });
    expect(actor.getSnapshot().context.form).toMatchObject({
      provider: 'anthropic',
      model: 'claude-sonnet-4-20250514',
      customModel: 'anthropic/claude-sonnet-4-20250514',
    });
    actor.send({ type: 'CHANGE', field: 'customModel', value: 'openrouter/meta/llama-3' });
    expect(actor.getSnapshot().context.form).toMatchObject({ provider: 'openrouter', model: 'meta/llama-3' });
    actor.stop();
  });
});

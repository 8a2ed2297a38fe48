import type { components } from '../openapi/schema.d.ts';

// The model settings form's rules (spec §3 defaults, §4 and §5): basic mode picks a provider and
// one of its models; advanced mode types any model id with a base URL and sets the agent's options.

export type Settings = components['schemas']['Settings'];
export type SettingsUpdate = components['schemas']['SettingsUpdate'];

export interface ModelForm {
  provider: string;
  model: string;
  /** Advanced: the whole model id as typed (any provider/model, e.g. for an OpenAI-compatible server). */
  customModel: string;
  baseUrl: string;
  /** As typed; empty keeps the saved key. */
  apiKey: string;
  /** Set by "Remove the saved key": the key is cleared (sent as an empty string). */
  clearApiKey: boolean;
  searchApiKey: string;
  /** The search key is sent only once its field was changed (then as typed, '' clearing it). */
  searchApiKeyChanged: boolean;
  agent: string;
  confirmationMode: boolean;
  securityAnalyzer: string;
  enableDefaultCondenser: boolean;
  resourceFactor: 1 | 2 | 4 | 8;
}

export type ModelFormField = keyof ModelForm;
export type ModelFormError = 'providerRequired' | 'modelRequired' | 'baseUrlRequired';

/**
 * The basic mode's choice of any OpenAI-compatible server (Ollama, vLLM, LiteLLM...): a model
 * name and the server's base URL, saved as LiteLLM spells it, `openai/<model>` with the URL.
 */
export const COMPATIBLE_PROVIDER = 'openai-compatible';

/** The spec's provider display names (§10), by the provider part of a model id. */
export const PROVIDER_NAMES: Readonly<Record<string, string>> = {
  anthropic: 'Anthropic',
  openai: 'OpenAI',
  azure: 'Azure',
  bedrock: 'AWS Bedrock',
  mistral: 'Mistral AI',
  groq: 'Groq',
  openrouter: 'OpenRouter',
  gemini: 'Google Gemini',
  deepseek: 'DeepSeek',
};

/** The model id a basic-mode provider and model save as. */
export const modelIdOf = (provider: string, model: string) =>
  `${provider === COMPATIBLE_PROVIDER ? 'openai' : provider.trim()}/${model.trim()}`;

/** The spec's defaults (§3): model the provider's Claude Sonnet 4, agent CodeActAgent, confirmation off, factor 1, condenser on. */
export const DEFAULT_MODEL_ID = 'anthropic/claude-sonnet-4-20250514';
export const DEFAULT_AGENT = 'CodeActAgent';
const ADVANCED_DEFAULTS = {
  baseUrl: '',
  agent: DEFAULT_AGENT,
  confirmationMode: false,
  securityAnalyzer: '',
  enableDefaultCondenser: true,
  resourceFactor: 1,
} as const;

// Providers whose ids are sometimes written with a '.' instead of a '/' (e.g. AWS Bedrock's "anthropic.claude-…").
const DOT_SEPARATED_PROVIDERS = ['anthropic', 'cohere', 'meta', 'mistral', 'amazon', 'ai21'];

/**
 * A model id as provider and model: split on the first '/', else on the first '.' when what
 * precedes it is a provider written that way; a bare name keeps an empty provider.
 */
export function splitModelId(id: string): { provider: string; model: string } {
  const slash = id.indexOf('/');
  if (slash > 0) return { provider: id.slice(0, slash), model: id.slice(slash + 1) };
  const dot = id.indexOf('.');
  if (dot > 0 && DOT_SEPARATED_PROVIDERS.includes(id.slice(0, dot)))
    return { provider: id.slice(0, dot), model: id.slice(dot + 1) };
  return { provider: '', model: id };
}

/** The providers of the known models, in their order, each with its models. */
export function providersOf(knownModels: readonly string[]): Map<string, string[]> {
  const providers = new Map<string, string[]>();
  for (const id of knownModels) {
    const { provider, model } = splitModelId(id);
    if (!provider) continue;
    providers.set(provider, [...(providers.get(provider) ?? []), model]);
  }
  return providers;
}

/** The form as saved settings (or none: the defaults) fill it. */
export function modelForm(settings: Settings | null): ModelForm {
  const id = settings?.llm_model ?? DEFAULT_MODEL_ID;
  const { provider, model } = splitModelId(id);
  return {
    provider,
    model,
    customModel: id,
    baseUrl: settings?.llm_base_url ?? '',
    apiKey: '',
    clearApiKey: false,
    searchApiKey: '',
    searchApiKeyChanged: false,
    agent: settings?.agent ?? DEFAULT_AGENT,
    confirmationMode: settings?.confirmation_mode ?? false,
    securityAnalyzer: settings?.security_analyzer ?? '',
    enableDefaultCondenser: settings?.enable_default_condenser ?? true,
    resourceFactor: settings?.remote_runtime_resource_factor ?? 1,
  };
}

/** Advanced opens on load when the model is not a known one or any advanced value is not its default (spec §4). */
export function opensAdvancedOnLoad(form: ModelForm, knownModels: readonly string[]): boolean {
  return (
    !knownModels.includes(form.customModel) ||
    (Object.keys(ADVANCED_DEFAULTS) as (keyof typeof ADVANCED_DEFAULTS)[]).some(
      (field) => form[field] !== ADVANCED_DEFAULTS[field],
    )
  );
}

export function modelFormErrors(form: ModelForm, advanced: boolean): Partial<Record<ModelFormField, ModelFormError>> {
  if (advanced) return form.customModel.trim() ? {} : { customModel: 'modelRequired' };
  return {
    ...(!form.provider.trim() && { provider: 'providerRequired' as const }),
    ...(!form.model.trim() && { model: 'modelRequired' as const }),
    ...(form.provider === COMPATIBLE_PROVIDER && !form.baseUrl.trim() && { baseUrl: 'baseUrlRequired' as const }),
  };
}

/**
 * What Save sends (spec §5): basic mode builds provider/model and resets the advanced values to
 * their defaults (an OpenAI-compatible server keeps its base URL); advanced options apply only in
 * advanced mode; the key is trimmed and sent as null when empty (null keeps the saved key, an
 * empty string clears it); the search key is sent as an empty string when empty; the security
 * analyzer only with confirmation mode.
 */
export function modelSettingsPayload(form: ModelForm, advanced: boolean): SettingsUpdate {
  const compatible = !advanced && form.provider === COMPATIBLE_PROVIDER;
  const values = advanced ? form : { ...form, ...ADVANCED_DEFAULTS, ...(compatible && { baseUrl: form.baseUrl }) };
  return {
    llm_model: advanced ? form.customModel.trim() : modelIdOf(form.provider, form.model),
    llm_base_url: values.baseUrl.trim() || null,
    llm_api_key: form.clearApiKey ? '' : form.apiKey.trim() || null,
    ...(form.searchApiKeyChanged && { search_api_key: form.searchApiKey.trim() }),
    agent: values.agent,
    confirmation_mode: values.confirmationMode,
    ...(values.confirmationMode && { security_analyzer: values.securityAnalyzer || null }),
    enable_default_condenser: values.enableDefaultCondenser,
    remote_runtime_resource_factor: values.resourceFactor,
  };
}

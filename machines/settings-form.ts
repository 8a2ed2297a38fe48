import { and, assign, not, setup, type ErrorActorEvent, type SnapshotFrom } from 'xstate';
import {
  modelForm,
  modelFormErrors,
  modelIdOf,
  modelSettingsPayload,
  opensAdvancedOnLoad,
  providersOf,
  splitModelId,
  type ModelForm,
  type ModelFormError,
  type ModelFormField,
  type Settings,
  type SettingsUpdate,
} from './model-settings.ts';
import { notProvidedPromise } from './not-provided.ts';

// The model settings form (settings tab and AI settings modal). Loading reads the settings: none
// saved (404) fills in the defaults and is remembered, so oss mode can open the AI settings modal;
// a failure shows the spec's message. Editing tracks changes; Save is enabled only after one and
// while not saving. Saving inside a running conversation first asks to end its session.

export interface SettingsFormContext {
  knownModels: readonly string[];
  /** A conversation is running where the form is shown: saving ends its session, after a confirmation. */
  inConversation: boolean;
  form: ModelForm;
  saved: ModelForm;
  advanced: boolean;
  savedAdvanced: boolean;
  keySet: boolean;
  neverSaved: boolean;
  errors: Partial<Record<ModelFormField, ModelFormError>>;
  saveError: unknown;
}

export type SettingsFormEvent =
  | { type: 'CHANGE'; field: ModelFormField; value: ModelForm[ModelFormField] }
  | { type: 'SET_ADVANCED'; advanced: boolean }
  | { type: 'CLEAR_KEY' }
  | { type: 'SAVE' }
  | { type: 'CONFIRM' }
  | { type: 'CANCEL' };

export interface SettingsFormInput {
  knownModels: readonly string[];
  inConversation: boolean;
}

// Switching basic/advanced changes what is sent (basic resets the advanced values): a change too.
const hasChanges = (context: SettingsFormContext) =>
  context.advanced !== context.savedAdvanced || JSON.stringify(context.form) !== JSON.stringify(context.saved);

export const settingsFormMachine = setup({
  types: {
    context: {} as SettingsFormContext,
    events: {} as SettingsFormEvent,
    input: {} as SettingsFormInput,
  },
  actors: {
    /** GET /api/settings: null when never saved (404). */
    loadSettings: notProvidedPromise<Settings | null>('loadSettings'),
    /** POST /api/settings (and, inside a conversation, ending its session). */
    saveSettings: notProvidedPromise<void, SettingsUpdate>('saveSettings'),
  },
  actions: {
    fill: assign(({ context }, settings: Settings | null) => {
      const form = modelForm(settings);
      const advanced = opensAdvancedOnLoad(form, context.knownModels);
      return {
        form,
        saved: form,
        advanced,
        savedAdvanced: advanced,
        keySet: settings?.llm_api_key_set ?? false,
        neverSaved: settings === null,
      };
    }),
    change: assign(({ context }, change: { field: ModelFormField; value: ModelForm[ModelFormField] }) => {
      const form = { ...context.form, [change.field]: change.value };
      // A new provider starts on its first model; the search key counts once its field changed.
      if (change.field === 'provider')
        form.model = providersOf(context.knownModels).get(String(change.value))?.[0] ?? '';
      if (change.field === 'searchApiKey') form.searchApiKeyChanged = true;
      if (change.field === 'provider' || change.field === 'model')
        form.customModel = modelIdOf(form.provider, form.model);
      if (change.field === 'customModel') Object.assign(form, splitModelId(String(change.value)));
      return { form, errors: {}, saveError: null };
    }),
    setAdvanced: assign((_, advanced: boolean) => ({ advanced, errors: {} })),
    clearKey: assign(({ context }) => ({ form: { ...context.form, apiKey: '', clearApiKey: true } })),
    showErrors: assign(({ context }) => ({ errors: modelFormErrors(context.form, context.advanced) })),
    keepSaved: assign(({ context }) => {
      const saved = { ...context.form, apiKey: '', clearApiKey: false, searchApiKey: '', searchApiKeyChanged: false };
      const keySet = context.form.clearApiKey ? false : context.keySet || context.form.apiKey.trim() !== '';
      return { form: saved, saved, savedAdvanced: context.advanced, keySet, neverSaved: false, saveError: null };
    }),
    rememberSaveError: assign((_, error: unknown) => ({ saveError: error })),
  },
  guards: {
    isValid: ({ context }) => Object.keys(modelFormErrors(context.form, context.advanced)).length === 0,
    isDirty: ({ context }) => hasChanges(context),
    inConversation: ({ context }) => context.inConversation,
  },
}).createMachine({
  id: 'settingsForm',
  context: ({ input }) => {
    const form = modelForm(null);
    return {
      knownModels: input.knownModels,
      inConversation: input.inConversation,
      form,
      saved: form,
      advanced: false,
      savedAdvanced: false,
      keySet: false,
      neverSaved: false,
      errors: {},
      saveError: null,
    };
  },
  initial: 'loading',
  states: {
    loading: {
      invoke: {
        id: 'loadSettings',
        src: 'loadSettings',
        onDone: { target: 'editing', actions: { type: 'fill', params: ({ event }) => event.output } },
        onError: { target: 'failed' },
      },
    },
    failed: {},
    editing: {
      on: {
        CHANGE: { actions: { type: 'change', params: ({ event }) => ({ field: event.field, value: event.value }) } },
        SET_ADVANCED: { actions: { type: 'setAdvanced', params: ({ event }) => event.advanced } },
        CLEAR_KEY: { actions: 'clearKey' },
        SAVE: [
          { guard: and(['isDirty', not('isValid')]), actions: 'showErrors' },
          { guard: and(['isDirty', 'inConversation']), target: 'confirmingEndSession' },
          { guard: 'isDirty', target: 'saving' },
        ],
      },
    },
    confirmingEndSession: {
      on: { CONFIRM: { target: 'saving' }, CANCEL: { target: 'editing' } },
    },
    saving: {
      invoke: {
        id: 'saveSettings',
        src: 'saveSettings',
        input: ({ context }) => modelSettingsPayload(context.form, context.advanced),
        onDone: { target: 'editing', actions: 'keepSaved' },
        onError: {
          target: 'editing',
          actions: { type: 'rememberSaveError', params: ({ event }: { event: ErrorActorEvent }) => event.error },
        },
      },
    },
  },
});

export type SettingsFormSnapshot = SnapshotFrom<typeof settingsFormMachine>;

export const selectIsLoading = (snapshot: SettingsFormSnapshot) => snapshot.matches('loading');
export const selectLoadFailed = (snapshot: SettingsFormSnapshot) => snapshot.matches('failed');
export const selectIsSaving = (snapshot: SettingsFormSnapshot) => snapshot.matches('saving');
export const selectIsConfirmingEndSession = (snapshot: SettingsFormSnapshot) =>
  snapshot.matches('confirmingEndSession');
/** Save is enabled only after a change and while not saving (spec §4). */
export const selectCanSave = (snapshot: SettingsFormSnapshot) =>
  snapshot.matches('editing') && hasChanges(snapshot.context);
/** The user never saved settings: in oss mode the AI settings modal opens (spec §6). */
export const selectNeverSaved = (snapshot: SettingsFormSnapshot) =>
  snapshot.matches('editing') && snapshot.context.neverSaved;

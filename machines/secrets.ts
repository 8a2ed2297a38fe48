import { assign, setup, type SnapshotFrom } from 'xstate';
import type { components } from '../openapi/schema.d.ts';
import { notProvidedPromise } from './not-provided.ts';
import { createSecretBody, secretDraftErrors, updateSecretBody, type SecretDraft } from './secret-form.ts';

// Settings → Secrets: a secret is added with a name, a value and an optional description, or
// edited (its value is never shown again: an empty value keeps it). Save checks the form first
// and names what is wrong under each field; deleting asks first. A refusal stays in its dialog with
// the server's words, and closing a dialog while its call runs lets the call finish unseen (the
// actors refresh the list).

type CustomSecret = components['schemas']['CustomSecret'];
type SecretCreateRequest = components['schemas']['SecretCreateRequest'];
type SecretUpdateRequest = components['schemas']['SecretUpdateRequest'];

/** What Save sends: a new secret, or the changes to one (null when nothing changed). */
export type SecretSave = { create: SecretCreateRequest } | { name: string; update: SecretUpdateRequest | null };

export interface SecretsContext {
  /** The secret being edited; null while adding one. */
  secret: CustomSecret | null;
  draft: SecretDraft;
  /** Save was pressed: from then on the form's errors show. */
  submitted: boolean;
  /** The secret whose deletion is being confirmed. */
  deleting: CustomSecret | null;
  /** Why the last save or deletion failed. */
  failure: unknown;
}

export type SecretsEvent =
  | { type: 'ADD' }
  | { type: 'EDIT'; secret: CustomSecret }
  | { type: 'FIELD_CHANGED'; field: keyof SecretDraft; value: string }
  | { type: 'SUBMIT' }
  | { type: 'DELETE'; secret: CustomSecret }
  | { type: 'CONFIRM' }
  | { type: 'CLOSE' };

const errorsOf = (context: SecretsContext) => secretDraftErrors(context.draft, context.secret !== null);
const opened = (secret: CustomSecret | null) => ({
  secret,
  draft: { name: secret?.name ?? '', value: '', description: secret?.description ?? '' },
  submitted: false,
});

export const secretsMachine = setup({
  types: { context: {} as SecretsContext, events: {} as SecretsEvent },
  actors: {
    /** POST /api/secrets or PUT /api/secrets/{name} (nothing when nothing changed), then refreshes the list. */
    saveSecret: notProvidedPromise<void, SecretSave>('saveSecret'),
    /** DELETE /api/secrets/{name}, then refreshes the list. */
    deleteSecret: notProvidedPromise<void, string>('deleteSecret'),
  },
  actions: {
    // A new attempt hides the last one's reason, as the request starts.
    forgetFailure: assign({ failure: null }),
  },
  guards: {
    draftValid: ({ context }) => Object.keys(errorsOf(context)).length === 0,
  },
}).createMachine({
  id: 'secrets',
  context: { ...opened(null), deleting: null, failure: null },
  initial: 'idle',
  states: {
    idle: {
      on: {
        ADD: { target: 'editing', actions: [assign(opened(null)), 'forgetFailure'] },
        EDIT: { target: 'editing', actions: [assign(({ event }) => opened(event.secret)), 'forgetFailure'] },
        DELETE: {
          target: 'confirmingDelete',
          actions: [assign(({ event }) => ({ deleting: event.secret })), 'forgetFailure'],
        },
      },
    },
    editing: {
      on: {
        FIELD_CHANGED: {
          actions: assign(({ context, event }) => ({ draft: { ...context.draft, [event.field]: event.value } })),
        },
        SUBMIT: [
          { guard: 'draftValid', target: 'saving', actions: assign({ submitted: true }) },
          { actions: assign({ submitted: true }) },
        ],
        CLOSE: 'idle',
      },
    },
    saving: {
      entry: 'forgetFailure',
      invoke: {
        id: 'saveSecret',
        src: 'saveSecret',
        input: ({ context: { secret, draft } }): SecretSave =>
          secret ? { name: secret.name, update: updateSecretBody(secret, draft) } : { create: createSecretBody(draft) },
        onDone: 'idle',
        onError: { target: 'editing', actions: assign(({ event }) => ({ failure: event.error ?? 'failed' })) },
      },
      on: { CLOSE: 'idle' },
    },
    confirmingDelete: {
      on: {
        CONFIRM: 'deleting',
        CLOSE: { target: 'idle', actions: assign({ deleting: null }) },
      },
    },
    deleting: {
      entry: 'forgetFailure',
      invoke: {
        id: 'deleteSecret',
        src: 'deleteSecret',
        input: ({ context }) => context.deleting?.name ?? '',
        onDone: { target: 'idle', actions: assign({ deleting: null }) },
        onError: { target: 'confirmingDelete', actions: assign(({ event }) => ({ failure: event.error ?? 'failed' })) },
      },
      on: { CLOSE: { target: 'idle', actions: assign({ deleting: null }) } },
    },
  },
});

type Snapshot = SnapshotFrom<typeof secretsMachine>;

/** Which dialog is open. */
export const selectDialog = (snapshot: Snapshot): 'edit' | 'delete' | null =>
  snapshot.matches('editing') || snapshot.matches('saving')
    ? 'edit'
    : snapshot.matches('confirmingDelete') || snapshot.matches('deleting')
      ? 'delete'
      : null;
export const selectSecret = (snapshot: Snapshot) => snapshot.context.secret;
export const selectDraft = (snapshot: Snapshot) => snapshot.context.draft;
/** The form's errors by field, once Save was pressed (keys of settings:secrets.errors). */
export const selectFieldErrors = (snapshot: Snapshot) => (snapshot.context.submitted ? errorsOf(snapshot.context) : {});
export const selectDeleting = (snapshot: Snapshot) => snapshot.context.deleting;
export const selectBusy = (snapshot: Snapshot) => snapshot.matches('saving') || snapshot.matches('deleting');
export const selectFailure = (snapshot: Snapshot) => snapshot.context.failure;

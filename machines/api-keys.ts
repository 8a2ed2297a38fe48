import { assign, setup, type SnapshotFrom } from 'xstate';
import type { components } from '../openapi/schema.d.ts';
import { notProvidedPromise } from './not-provided.ts';

// Settings → API keys (saas): a key is created under a name, and its full value is shown once, in
// the dialog that follows creation, then forgotten; the list (TanStack Query's) shows only names
// and prefixes. Revoking asks first. A refusal stays in its dialog with the server's words, and
// closing a dialog while its call runs lets the call finish unseen (the actors refresh the list).

type ApiKey = components['schemas']['ApiKey'];
type CreatedApiKey = components['schemas']['CreatedApiKey'];

export interface ApiKeysContext {
  /** The name typed in the create dialog. */
  name: string;
  /** Create was pressed: from then on an empty name says so. */
  submitted: boolean;
  /** The new key, held only while the dialog that shows it is open. */
  created: CreatedApiKey | null;
  /** The key whose revocation is being confirmed. */
  revoking: ApiKey | null;
  /** Why the last creation or revocation failed. */
  failure: unknown;
}

export type ApiKeysEvent =
  | { type: 'CREATE' }
  | { type: 'NAME_CHANGED'; name: string }
  | { type: 'SUBMIT' }
  | { type: 'COPY' }
  | { type: 'REVOKE'; key: ApiKey }
  | { type: 'CONFIRM' }
  | { type: 'CLOSE' };

const closed: Pick<ApiKeysContext, 'created' | 'revoking'> = { created: null, revoking: null };

export const apiKeysMachine = setup({
  types: { context: {} as ApiKeysContext, events: {} as ApiKeysEvent },
  actors: {
    /** POST /api/keys with the name, then refreshes the list. */
    createKey: notProvidedPromise<CreatedApiKey, string>('createKey'),
    /** DELETE /api/keys/{key_id}, then refreshes the list. */
    revokeKey: notProvidedPromise<void, string>('revokeKey'),
    /** Writes the key to the clipboard; the browser may refuse (permissions, an insecure origin). */
    writeClipboard: notProvidedPromise<void, string>('writeClipboard'),
  },
  actions: {
    // A new attempt hides the last one's reason, as the request starts.
    forgetFailure: assign({ failure: null }),
  },
  guards: {
    nameGiven: ({ context }) => context.name.trim() !== '',
  },
}).createMachine({
  id: 'apiKeys',
  context: { name: '', submitted: false, failure: null, ...closed },
  initial: 'idle',
  states: {
    idle: {
      on: {
        CREATE: { target: 'naming', actions: [assign({ name: '', submitted: false }), 'forgetFailure'] },
        REVOKE: {
          target: 'confirmingRevoke',
          actions: [assign(({ event }) => ({ revoking: event.key })), 'forgetFailure'],
        },
      },
    },
    naming: {
      on: {
        NAME_CHANGED: { actions: assign(({ event }) => ({ name: event.name })) },
        SUBMIT: [
          { guard: 'nameGiven', target: 'creating', actions: assign({ submitted: true }) },
          { actions: assign({ submitted: true }) },
        ],
        CLOSE: 'idle',
      },
    },
    creating: {
      entry: 'forgetFailure',
      invoke: {
        id: 'createKey',
        src: 'createKey',
        input: ({ context }) => context.name.trim(),
        onDone: { target: 'showingKey', actions: assign(({ event }) => ({ created: event.output })) },
        onError: { target: 'naming', actions: assign(({ event }) => ({ failure: event.error ?? 'failed' })) },
      },
      on: { CLOSE: 'idle' },
    },
    // Shown once: closing forgets the key.
    showingKey: {
      initial: 'ready',
      states: {
        ready: {},
        copying: {
          invoke: {
            id: 'writeClipboard',
            src: 'writeClipboard',
            input: ({ context }) => context.created?.key ?? '',
            onDone: 'copied',
            onError: 'copyRefused',
          },
        },
        copied: {},
        // The key can still be selected in its field and copied by hand.
        copyRefused: {},
      },
      on: {
        COPY: '.copying',
        CLOSE: { target: 'idle', actions: assign(closed) },
      },
    },
    confirmingRevoke: {
      on: {
        CONFIRM: 'revoking',
        CLOSE: { target: 'idle', actions: assign(closed) },
      },
    },
    revoking: {
      entry: 'forgetFailure',
      invoke: {
        id: 'revokeKey',
        src: 'revokeKey',
        input: ({ context }) => context.revoking?.id ?? '',
        onDone: { target: 'idle', actions: assign(closed) },
        onError: { target: 'confirmingRevoke', actions: assign(({ event }) => ({ failure: event.error ?? 'failed' })) },
      },
      on: { CLOSE: { target: 'idle', actions: assign(closed) } },
    },
  },
});

type Snapshot = SnapshotFrom<typeof apiKeysMachine>;

/** Which dialog is open. */
export const selectDialog = (snapshot: Snapshot): 'create' | 'created' | 'revoke' | null =>
  snapshot.matches('naming') || snapshot.matches('creating')
    ? 'create'
    : snapshot.matches('showingKey')
      ? 'created'
      : snapshot.matches('confirmingRevoke') || snapshot.matches('revoking')
        ? 'revoke'
        : null;
export const selectName = (snapshot: Snapshot) => snapshot.context.name;
export const selectNameMissing = (snapshot: Snapshot) =>
  snapshot.context.submitted && snapshot.context.name.trim() === '';
export const selectCreatedKey = (snapshot: Snapshot) => snapshot.context.created?.key ?? null;
export const selectCopy = (snapshot: Snapshot): 'ready' | 'copied' | 'refused' =>
  snapshot.matches({ showingKey: 'copied' })
    ? 'copied'
    : snapshot.matches({ showingKey: 'copyRefused' })
      ? 'refused'
      : 'ready';
export const selectRevoking = (snapshot: Snapshot) => snapshot.context.revoking;
export const selectBusy = (snapshot: Snapshot) => snapshot.matches('creating') || snapshot.matches('revoking');
export const selectFailure = (snapshot: Snapshot) => snapshot.context.failure;

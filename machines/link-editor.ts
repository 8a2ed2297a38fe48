import { assign, setup, type SnapshotFrom } from 'xstate';
import { notProvidedAction, notProvidedPromise } from './not-provided.ts';

// The affiliate dashboard's link actions (public-site spec §2 and §4, "Link lifecycle"), one at a
// time: the create dialog (both fields required once trimmed; it closes only by Cancel, Escape or
// a created link), the inline rename of one row (trimmed; an empty name is not sent; a failed
// rename is only logged) and the archive confirmation. A failed create or archive keeps its
// dialog open and announces the server's detail or the spec's text.

export interface NewLink {
  name: string;
  code: string;
}

interface LinkEditorContext {
  draft: NewLink;
  /** The link being renamed or archived. */
  linkId: string | null;
  name: string;
}

export type LinkEditorEvent =
  | { type: 'CREATE' }
  | { type: 'DRAFT_CHANGED'; field: keyof NewLink; value: string }
  | { type: 'RENAME'; linkId: string; name: string }
  | { type: 'NAME_CHANGED'; name: string }
  | { type: 'ARCHIVE'; linkId: string }
  | { type: 'SAVE' }
  | { type: 'CANCEL' };

const trimmed = (link: NewLink): NewLink => ({ name: link.name.trim(), code: link.code.trim() });

export const linkEditorMachine = setup({
  types: { context: {} as LinkEditorContext, events: {} as LinkEditorEvent },
  actors: {
    /** POST /api/affiliate/links. */
    createLink: notProvidedPromise<unknown, NewLink>('createLink'),
    /** PUT /api/affiliate/links/{id}. */
    renameLink: notProvidedPromise<unknown, { linkId: string; name: string }>('renameLink'),
    /** DELETE /api/affiliate/links/{id}. */
    archiveLink: notProvidedPromise<unknown, { linkId: string }>('archiveLink'),
  },
  actions: {
    /** The links changed: the table loads them again. */
    refreshLinks: notProvidedAction('refreshLinks'),
    announceCreateFailure: notProvidedAction<unknown>('announceCreateFailure'),
    announceArchiveFailure: notProvidedAction<unknown>('announceArchiveFailure'),
    logRenameFailure: notProvidedAction<unknown>('logRenameFailure'),
    clearDraft: assign({ draft: { name: '', code: '' } }),
    changeDraft: assign(({ context }, { field, value }: { field: keyof NewLink; value: string }) => ({
      draft: { ...context.draft, [field]: value },
    })),
    chooseLink: assign((_, { linkId, name }: { linkId: string; name: string }) => ({ linkId, name })),
    changeName: assign((_, name: string) => ({ name })),
    forgetLink: assign({ linkId: null, name: '' }),
  },
  guards: {
    draftComplete: ({ context }) => {
      const { name, code } = trimmed(context.draft);
      return name !== '' && code !== '';
    },
    nameGiven: ({ context }) => context.name.trim() !== '',
  },
}).createMachine({
  id: 'linkEditor',
  context: { draft: { name: '', code: '' }, linkId: null, name: '' },
  initial: 'idle',
  states: {
    idle: {
      on: {
        CREATE: { target: 'creating', actions: 'clearDraft' },
        RENAME: { target: 'renaming', actions: { type: 'chooseLink', params: ({ event }) => event } },
        ARCHIVE: {
          target: 'archiving',
          actions: { type: 'chooseLink', params: ({ event }) => ({ linkId: event.linkId, name: '' }) },
        },
      },
    },
    creating: {
      initial: 'editing',
      on: { CANCEL: { target: 'idle', actions: 'clearDraft' } },
      states: {
        editing: {
          on: {
            DRAFT_CHANGED: { actions: { type: 'changeDraft', params: ({ event }) => event } },
            SAVE: { guard: 'draftComplete', target: 'saving' },
          },
        },
        saving: {
          invoke: {
            id: 'createLink',
            src: 'createLink',
            input: ({ context }) => trimmed(context.draft),
            onDone: { target: '#linkEditor.idle', actions: ['clearDraft', 'refreshLinks'] },
            onError: {
              target: 'editing',
              actions: {
                type: 'announceCreateFailure',
                params: ({ event }: { event: { error: unknown } }) => event.error,
              },
            },
          },
        },
      },
    },
    renaming: {
      initial: 'editing',
      states: {
        editing: {
          on: {
            NAME_CHANGED: { actions: { type: 'changeName', params: ({ event }) => event.name } },
            SAVE: { guard: 'nameGiven', target: 'saving' },
            CANCEL: { target: '#linkEditor.idle', actions: 'forgetLink' },
            // Another row's pencil: that row is edited instead.
            RENAME: { target: 'editing', reenter: true, actions: { type: 'chooseLink', params: ({ event }) => event } },
          },
        },
        saving: {
          invoke: {
            id: 'renameLink',
            src: 'renameLink',
            input: ({ context }) => ({ linkId: context.linkId ?? '', name: context.name.trim() }),
            onDone: { target: '#linkEditor.idle', actions: ['forgetLink', 'refreshLinks'] },
            onError: {
              target: '#linkEditor.idle',
              actions: [
                { type: 'logRenameFailure', params: ({ event }: { event: { error: unknown } }) => event.error },
                'forgetLink',
              ],
            },
          },
        },
      },
    },
    archiving: {
      initial: 'confirming',
      states: {
        confirming: {
          on: {
            SAVE: 'saving',
            CANCEL: { target: '#linkEditor.idle', actions: 'forgetLink' },
          },
        },
        saving: {
          invoke: {
            id: 'archiveLink',
            src: 'archiveLink',
            input: ({ context }) => ({ linkId: context.linkId ?? '' }),
            onDone: { target: '#linkEditor.idle', actions: ['forgetLink', 'refreshLinks'] },
            onError: {
              target: 'confirming',
              actions: {
                type: 'announceArchiveFailure',
                params: ({ event }: { event: { error: unknown } }) => event.error,
              },
            },
          },
        },
      },
    },
  },
});

export type LinkEditorSnapshot = SnapshotFrom<typeof linkEditorMachine>;
export const selectCreateOpen = (snapshot: LinkEditorSnapshot) => snapshot.matches('creating');
export const selectCreating = (snapshot: LinkEditorSnapshot) => snapshot.matches({ creating: 'saving' });
export const selectDraft = (snapshot: LinkEditorSnapshot) => snapshot.context.draft;
export const selectCanCreate = (snapshot: LinkEditorSnapshot) =>
  snapshot.matches({ creating: 'editing' }) && snapshot.can({ type: 'SAVE' });
/** The row being renamed and its name as typed, or null. */
export const selectRenaming = (snapshot: LinkEditorSnapshot) =>
  snapshot.matches('renaming')
    ? { linkId: snapshot.context.linkId, name: snapshot.context.name, saving: snapshot.matches({ renaming: 'saving' }) }
    : null;
export const selectArchiving = (snapshot: LinkEditorSnapshot) =>
  snapshot.matches('archiving')
    ? { linkId: snapshot.context.linkId, saving: snapshot.matches({ archiving: 'saving' }) }
    : null;

import { assign, setup, type ErrorActorEvent, type SnapshotFrom } from 'xstate';
import { mcpConfigText, validateMcpConfig, type McpConfig, type McpConfigError } from './mcp-config.ts';
import { notProvidedPromise } from './not-provided.ts';

// The MCP settings tab (spec §2, §4, §5). Viewing lists the saved servers. Edit opens the JSON in
// a text area; Confirm validates it: broken rules show under an error heading and the text stays,
// a valid configuration is staged (listed as it will be) and enables Save; Cancel discards the
// text and goes back to what was there (the staged configuration, if any, else the saved one).
// Save sends the staged configuration; a failure keeps it staged, to save again or edit.

export interface McpEditorContext {
  saved: McpConfig;
  staged: McpConfig | null;
  draft: string;
  errors: McpConfigError[];
  saveError: unknown;
}

export type McpEditorEvent =
  { type: 'EDIT' } | { type: 'CHANGE'; text: string } | { type: 'CONFIRM' } | { type: 'CANCEL' } | { type: 'SAVE' };

export const mcpEditorMachine = setup({
  types: { context: {} as McpEditorContext, events: {} as McpEditorEvent, input: {} as { saved: McpConfig } },
  actors: {
    /** POST /api/settings with { mcp_config }. */
    saveMcpConfig: notProvidedPromise<void, McpConfig>('saveMcpConfig'),
  },
  actions: {
    openDraft: assign(({ context }) => ({ draft: mcpConfigText(context.staged ?? context.saved), errors: [] })),
    changeDraft: assign((_, text: string) => ({ draft: text })),
    stage: assign(({ context }) => {
      const result = validateMcpConfig(context.draft);
      return 'config' in result ? { staged: result.config, errors: [] } : { errors: result.errors };
    }),
    keepSaved: assign(({ context }) => ({ saved: context.staged ?? context.saved, staged: null, saveError: null })),
    rememberSaveError: assign((_, error: unknown) => ({ saveError: error })),
    forgetSaveError: assign({ saveError: null }),
  },
  guards: {
    draftIsValid: ({ context }) => 'config' in validateMcpConfig(context.draft),
    hasStaged: ({ context }) => context.staged !== null,
  },
}).createMachine({
  id: 'mcpEditor',
  context: ({ input }) => ({ saved: input.saved, staged: null, draft: '', errors: [], saveError: null }),
  initial: 'viewing',
  states: {
    viewing: { on: { EDIT: { target: 'editing', actions: 'openDraft' } } },
    editing: {
      on: {
        CHANGE: { actions: { type: 'changeDraft', params: ({ event }) => event.text } },
        CONFIRM: [
          { guard: 'draftIsValid', target: 'staged', actions: 'stage' },
          // The text stays, with the rules it breaks.
          { actions: 'stage' },
        ],
        CANCEL: [{ guard: 'hasStaged', target: 'staged' }, { target: 'viewing' }],
      },
    },
    staged: {
      on: {
        SAVE: { target: 'saving', actions: 'forgetSaveError' },
        EDIT: { target: 'editing', actions: 'openDraft' },
      },
    },
    saving: {
      invoke: {
        id: 'saveMcpConfig',
        src: 'saveMcpConfig',
        input: ({ context }) => context.staged ?? context.saved,
        onDone: { target: 'viewing', actions: 'keepSaved' },
        onError: {
          target: 'staged',
          actions: { type: 'rememberSaveError', params: ({ event }: { event: ErrorActorEvent }) => event.error },
        },
      },
    },
  },
});

export type McpEditorSnapshot = SnapshotFrom<typeof mcpEditorMachine>;

/** The configuration the list shows: the staged one while it waits to be saved, else the saved one. */
export const selectShownConfig = (snapshot: McpEditorSnapshot) => snapshot.context.staged ?? snapshot.context.saved;
/** The list shows the saved configuration (nothing staged). */
export const selectShowsSaved = (snapshot: McpEditorSnapshot) => snapshot.context.staged === null;
export const selectIsEditing = (snapshot: McpEditorSnapshot) => snapshot.matches('editing');
export const selectCanSave = (snapshot: McpEditorSnapshot) => snapshot.matches('staged');
export const selectIsSaving = (snapshot: McpEditorSnapshot) => snapshot.matches('saving');

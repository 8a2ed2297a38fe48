import { setup, type SnapshotFrom } from 'xstate';
import { notProvidedPromise } from './not-provided.ts';

// The affiliate dashboard's copy button (public-site spec §9): a press writes the link to the
// clipboard, then the button reads 'Copied!' for 2 seconds (`copiedReset`); a press meanwhile
// copies again and starts the 2 seconds over. A clipboard the browser refuses leaves it as it was.

export type CopyLinkEvent = { type: 'COPY' };

export interface CopyLinkInput {
  /** The full link. */
  text: string;
}

export const copyLinkMachine = setup({
  types: { context: {} as CopyLinkInput, events: {} as CopyLinkEvent, input: {} as CopyLinkInput },
  actors: {
    /** Writes the text to the clipboard. */
    writeClipboard: notProvidedPromise<void, string>('writeClipboard'),
  },
  delays: { copiedReset: 2000 },
}).createMachine({
  id: 'copyLink',
  context: ({ input }) => input,
  initial: 'idle',
  states: {
    idle: { on: { COPY: 'copying' } },
    copying: {
      invoke: {
        id: 'writeClipboard',
        src: 'writeClipboard',
        input: ({ context }) => context.text,
        onDone: 'copied',
        onError: 'idle',
      },
    },
    copied: {
      after: { copiedReset: 'idle' },
      on: { COPY: 'copying' },
    },
  },
});

export const selectCopied = (snapshot: SnapshotFrom<typeof copyLinkMachine>) => snapshot.matches('copied');

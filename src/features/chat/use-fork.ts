import { useSelector } from '@xstate/react';
import { useMemo } from 'react';
import { selectBusy, selectEditing, type ForkEvent } from '../../../machines/fork.ts';
import { useChatActors } from './use-chat-actors.ts';

/** What the chat's rows need of the fork machine: what is being edited, whether a fork is under way, and a way to tell it. */
export interface ForkControls {
  send: (event: ForkEvent) => void;
  editing: { eventId: number; draft: string } | null;
  busy: boolean;
}

/** Forks from the chat's rows, through the chat tree's fork actor. */
export function useFork(): ForkControls {
  const { fork } = useChatActors();
  const editing = useSelector(fork, selectEditing);
  const busy = useSelector(fork, selectBusy);
  return useMemo(() => ({ send: (event: ForkEvent) => fork.send(event), editing, busy }), [fork, editing, busy]);
}

import { useRouter } from '@tanstack/react-router';
import { useCallback, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { ForkEvent } from '../../../machines/fork.ts';
import { loadRetrying } from '../../ui/index.ts';
import type * as ForkModule from './fork-actor.ts';
import type { ForkActor } from './fork-actor.ts';

/** What the chat's rows need of the fork machine: what is being edited, whether a fork is under way, and a way to tell it. */
export interface ForkControls {
  send: (event: ForkEvent) => void;
  editing: { eventId: number; draft: string } | null;
  busy: boolean;
}

/**
 * Forks from the chat's rows. The machine and its calls load with the first "Fork from here" or
 * "Edit and retry" (most visits fork nothing), then live as long as the chat.
 */
export function useFork(conversationId: string): ForkControls {
  // Not useNavigate: the chat renders without a router in its component tests, which never fork.
  const router = useRouter({ warn: false });
  const [started, setStarted] = useState<{ actor: ForkActor; module: typeof ForkModule } | null>(null);
  const loading = useRef<Promise<ForkActor> | null>(null);
  useEffect(
    () => () => {
      started?.actor.stop();
    },
    [started],
  );

  const send = useCallback(
    (event: ForkEvent) => {
      if (started) return started.actor.send(event);
      loading.current ??= loadRetrying(() => import('./fork-actor.ts')).then((module) => {
        const actor = module.startFork(conversationId, (forkId) => {
          void router.navigate({ to: '/experiment/conversations/$conversationId', params: { conversationId: forkId } });
        });
        setStarted({ actor, module });
        return actor;
      });
      void loading.current.then((actor) => actor.send(event));
    },
    [started, conversationId, router],
  );
  const subscribe = useCallback(
    (listener: () => void) => {
      if (!started) return () => {};
      const subscription = started.actor.subscribe(listener);
      return () => subscription.unsubscribe();
    },
    [started],
  );
  const editing = useSyncExternalStore(subscribe, () =>
    started ? started.module.selectEditing(started.actor.getSnapshot()) : null,
  );
  const busy = useSyncExternalStore(subscribe, () =>
    started ? started.module.selectBusy(started.actor.getSnapshot()) : false,
  );
  return { send, editing, busy };
}

import i18next from 'i18next';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import type { LaunchSource, LaunchTask } from '../../../machines/microagent-launch.ts';
import type { MicroagentLaunchActor } from './microagent-launch.ts';
import type { Conversation } from '../../../openapi/types.ts';
import { loadRetrying } from '../../ui/index.ts';

const NO_TASKS: readonly LaunchTask[] = [];

/** The conversation as a launch needs it: null unless it has a repository, a branch and a git provider. */
export function launchSource(
  conversation: Pick<Conversation, 'conversation_id' | 'selected_repository' | 'selected_branch' | 'git_provider'>,
): LaunchSource | null {
  const { selected_repository: repository, selected_branch: branch, git_provider: provider } = conversation;
  if (!repository || !branch || !provider) return null;
  return { conversationId: conversation.conversation_id, repository, branch, provider };
}

/**
 * Microagent launches from the chat. The machine, its calls and the modal load with the first
 * 'Remember in a microagent' (few conversations launch one), then live as long as the chat.
 */
export function useMicroagentLaunch(conversation: Conversation) {
  const [launch, setLaunch] = useState<MicroagentLaunchActor | null>(null);
  const loading = useRef(false);
  // One object while the conversation's repository, branch and provider stay (remember keeps its identity).
  const { conversation_id, selected_repository, selected_branch, git_provider } = conversation;
  const source = useMemo(
    () => launchSource({ conversation_id, selected_repository, selected_branch, git_provider }),
    [conversation_id, selected_repository, selected_branch, git_provider],
  );
  useEffect(
    () => () => {
      launch?.stop();
    },
    [launch],
  );

  const remember = useCallback(
    (eventId: number) => {
      if (launch) launch.send({ type: 'OPEN', eventId });
      else if (source && !loading.current) {
        loading.current = true;
        // The modal's and the toasts' texts come with it.
        void Promise.all([loadRetrying(() => import('./microagent-launch.ts')), i18next.loadNamespaces('microagents')])
          .then(([{ startMicroagentLaunch }]) => {
            const started = startMicroagentLaunch(source);
            started.send({ type: 'OPEN', eventId });
            setLaunch(started);
          })
          .finally(() => {
            loading.current = false;
          });
      }
    },
    [launch, source],
  );
  const subscribe = useCallback(
    (listener: () => void) => {
      if (!launch) return () => {};
      const subscription = launch.subscribe(listener);
      return () => subscription.unsubscribe();
    },
    [launch],
  );
  const tasks = useSyncExternalStore(subscribe, () => launch?.getSnapshot().context.tasks ?? NO_TASKS);
  return { launch, remember: source ? remember : null, tasks };
}

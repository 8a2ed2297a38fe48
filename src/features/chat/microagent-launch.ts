import { useActorRef } from '@xstate/react';
import i18next from 'i18next';
import { fromCallback, fromPromise, type EventObject } from 'xstate';
import {
  microagentLaunchMachine,
  type LaunchNotice,
  type LaunchRequest,
  type LaunchSource,
  type MicroagentLaunchEvent,
} from '../../../machines/microagent-launch.ts';
import { dataOf } from '../../api/client.ts';
import { errorText } from '../../api/errors.ts';
import { apiClient } from '../../app/services.ts';
import { childOutcome } from '../../rules/launch-outcome.ts';
import { toast } from '../../ui/index.ts';
import { conversationRequests, openConversationStream } from '../conversations/index.ts';
import type { Conversation } from '../../../openapi/types.ts';

/** Spec §8: the microagent toasts show for 5 s. */
export const MICROAGENT_TOAST_MS = 5000;

/** The conversation as a launch needs it: null unless it has a repository, a branch and a git provider. */
export function launchSource(conversation: Conversation): LaunchSource | null {
  const { selected_repository: repository, selected_branch: branch, git_provider: provider } = conversation;
  if (!repository || !branch || !provider) return null;
  return { conversationId: conversation.conversation_id, repository, branch, provider };
}

/** The conversation that writes the microagent: the query as its first message, the file and triggers as its instructions. */
export function launchRequestBody(request: LaunchRequest) {
  const { source, target, triggers } = request;
  const t = i18next.getFixedT(null, 'chat');
  return {
    repository: source.repository,
    git_provider: source.provider,
    selected_branch: source.branch,
    initial_user_msg: request.query,
    conversation_instructions: [
      t('microagentLaunch.instructions.file', { target, repository: source.repository, branch: source.branch }),
      triggers.length > 0
        ? t('microagentLaunch.instructions.triggers', { triggers: triggers.join(', ') })
        : t('microagentLaunch.instructions.noTriggers'),
      t('microagentLaunch.instructions.pullRequest'),
    ].join('\n'),
    create_microagent: true,
  };
}

function announce(notice: LaunchNotice) {
  const t = i18next.getFixedT(null, 'chat');
  const duration = MICROAGENT_TOAST_MS;
  if (notice.kind === 'creating') toast.info(t('microagentLaunch.toast.creating'), { duration });
  else if (notice.kind === 'completed')
    toast.success(
      notice.prUrl
        ? t('microagentLaunch.toast.completedWithPr', { url: notice.prUrl })
        : t('microagentLaunch.toast.completed'),
      { duration },
    );
  else
    toast.error((notice.failure !== null && errorText(notice.failure)) || t('microagentLaunch.toast.error'), {
      duration,
    });
}

/**
 * Follows a launched conversation over its own socket until its events decide the task; the
 * machine stops it then, which closes the socket.
 */
const watchChild = fromCallback<
  EventObject,
  { conversationId: string },
  Extract<MicroagentLaunchEvent, { type: 'CHILD_FINISHED' | 'CHILD_FAILED' }>
>(({ input, sendBack }) => {
  const { conversationId } = input;
  const stream = openConversationStream({
    conversationId,
    clearTempMessage: () => {},
    describe: () => '',
    // The child's connection troubles are not this conversation's: its task just waits.
    announceError: () => {},
    reloadPage: () => window.location.reload(),
  });
  let seen = 0;
  let decided = false;
  const unsubscribe = stream.subscribe(() => {
    const { events } = stream.getSnapshot();
    for (const event of events.slice(seen)) {
      const outcome = decided ? null : childOutcome(event);
      if (outcome) {
        decided = true;
        sendBack({ ...outcome, conversationId });
      }
    }
    seen = events.length;
  });
  stream.connect();
  return () => {
    unsubscribe();
    stream.dispose();
  };
});

/** The launch-microagent modal's machine for the open conversation, bound to the API. */
export function useMicroagentLaunch(conversation: Conversation) {
  return useActorRef(
    microagentLaunchMachine.provide({
      actors: {
        rememberPrompt: fromPromise(async ({ input }) => {
          const answer = await dataOf(
            apiClient.GET('/api/conversations/{conversation_id}/remember-prompt', {
              params: { path: { conversation_id: input.conversationId }, query: { event_id: input.eventId } },
            }),
          );
          return answer.prompt;
        }),
        createConversation: fromPromise(async ({ input }) => {
          const created = await conversationRequests.create(launchRequestBody(input));
          return created.conversation_id;
        }),
        watchChild,
      },
      actions: { announce: (_, notice) => announce(notice) },
    }),
    { input: { source: launchSource(conversation) } },
  );
}

export type MicroagentLaunchActor = ReturnType<typeof useMicroagentLaunch>;

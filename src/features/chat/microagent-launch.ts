import i18next from 'i18next';
import { createActor, fromCallback, fromPromise, type EventObject } from 'xstate';
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

/** Spec §8: the microagent toasts show for 5 s. */
export const MICROAGENT_TOAST_MS = 5000;

/** The conversation that writes the microagent: the query as its first message, the file and triggers as its instructions. */
export function launchRequestBody(request: LaunchRequest) {
  const { source, target, triggers } = request;
  const t = i18next.getFixedT(null, 'microagents');
  return {
    repository: source.repository,
    git_provider: source.provider,
    selected_branch: source.branch,
    initial_user_msg: request.query,
    conversation_instructions: [
      t('launch.instructions.file', { target, repository: source.repository, branch: source.branch }),
      triggers.length > 0
        ? t('launch.instructions.triggers', { triggers: triggers.join(', ') })
        : t('launch.instructions.noTriggers'),
      t('launch.instructions.pullRequest'),
    ].join('\n'),
    create_microagent: true,
  };
}

function announce(notice: LaunchNotice) {
  const t = i18next.getFixedT(null, 'microagents');
  const duration = MICROAGENT_TOAST_MS;
  if (notice.kind === 'creating') toast.info(t('launch.toast.creating'), { duration });
  else if (notice.kind === 'completed')
    toast.success(
      notice.prUrl ? t('launch.toast.completedWithPr', { url: notice.prUrl }) : t('launch.toast.completed'),
      { duration },
    );
  else
    toast.error((notice.failure !== null && errorText(notice.failure)) || t('launch.toast.error'), {
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

/**
 * The launch-microagent modal's machine for the open conversation, bound to the API and started;
 * this module loads on the first 'Remember in a microagent' (use-microagent-launch.ts).
 */
export function startMicroagentLaunch(source: LaunchSource) {
  return createActor(
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
    { input: { source } },
  ).start();
}

export type MicroagentLaunchActor = ReturnType<typeof startMicroagentLaunch>;

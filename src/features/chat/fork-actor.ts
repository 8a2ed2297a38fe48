import i18next from 'i18next';
import { fromPromise } from 'xstate';
import { forkMachine, type ForkRequest } from '../../../machines/fork.ts';
import { errorText } from '../../api/errors.ts';
import { queryKeys } from '../../api/queries.ts';
import { queryClient } from '../../app/services.ts';
import { toast } from '../../ui/index.ts';
import { chatRequests } from './requests.ts';

/** The fork machine of one open conversation: forks through the API, then opens the new conversation. */
export function forkLogic(conversationId: string, openConversation: (forkId: string) => void) {
  return forkMachine.provide({
    actors: {
      fork: fromPromise(async ({ input }: { input: ForkRequest }) => {
        const forked = await chatRequests.fork(conversationId, {
          event_id: input.eventId,
          ...(input.message === undefined ? {} : { message: input.message }),
        });
        const skipped = forked.forked_from?.skipped_files ?? [];
        if (skipped.length > 0) toast.info(i18next.t('chat:fork.skipped', { files: skipped.join(', ') }));
        return forked.conversation_id;
      }),
    },
    actions: {
      openFork: (_, forkId) => {
        void queryClient.invalidateQueries({ queryKey: queryKeys.conversationList });
        openConversation(forkId);
      },
      announceFailure: (_, { error }) =>
        void toast.error(
          i18next.t('chat:fork.forkFailed', { reason: errorText(error) || i18next.t('common:errors.unknown') }),
        ),
    },
  });
}

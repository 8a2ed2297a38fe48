import { createFileRoute } from '@tanstack/react-router';
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../app/hooks.ts';
import { toast } from '../../ui/index.ts';
import { WorkspacePage } from '../../features/workspace/index.ts';
import { workspaceSearch } from '../-workspace-search.ts';
import { LAZY_TAB_VIEWS } from '../-workspace-tabs.ts';

export const Route = createFileRoute('/_sidebar/experiment/conversations/$conversationId')({
  validateSearch: workspaceSearch,
  // The chat (in every preset layout) comes with the route, so that its tab shows at once rather
  // than a fallback, which React keeps on screen for at least 300 ms. On entering or on a link's
  // hover (not when only the search changes), the conversation and its newest events are asked for
  // meanwhile, into the query cache the workspace reads, instead of after the workspace rendered.
  loader: async ({ params, cause, context: { queryClient } }) => {
    const chat = import('../../features/chat/index.ts');
    if (cause !== 'stay') {
      // Imported here: the route's loader is in the first download, the conversations feature is not.
      const { conversationQuery, newestEventsQuery } = await import('../../features/conversations/index.ts');
      void queryClient.prefetchQuery(conversationQuery(params.conversationId));
      void queryClient.prefetchQuery(newestEventsQuery(params.conversationId));
    }
    return { ChatPanel: (await chat).ChatPanel };
  },
  component: ExperimentWorkspace,
});

function ExperimentWorkspace() {
  const { conversationId } = Route.useParams();
  const { temp_message, from } = Route.useSearch();
  const navigate = Route.useNavigate();
  const { t } = useTranslation('workspace');
  // Arrived from the chat-only onboarding: welcomed once, then the url forgets where from.
  const welcomed = useRef(false);
  useEffect(() => {
    if (from !== 'onboarding' || welcomed.current) return;
    welcomed.current = true;
    toast.success(t('fromOnboarding'));
    // The id is named: a navigation right after mounting would otherwise take the params of the page it came from.
    void navigate({ params: { conversationId }, search: (search) => ({ ...search, from: undefined }), replace: true });
  }, [conversationId, from, navigate, t]);
  const { ChatPanel } = Route.useLoaderData();
  // Signing in (or switching account) on this page opens the conversation anew, as that user.
  const userId = useCurrentUser()?.id ?? null;
  const views = useMemo(() => ({ ...LAZY_TAB_VIEWS, chat: ChatPanel }), [ChatPanel]);
  return (
    <WorkspacePage
      key={`${conversationId}:${userId ?? ''}`}
      conversationId={conversationId}
      views={views}
      tempMessage={temp_message ?? null}
      clearTempMessage={() => void navigate({ params: { conversationId }, search: {}, replace: true })}
    />
  );
}

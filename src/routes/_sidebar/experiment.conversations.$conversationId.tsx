import { createFileRoute } from '@tanstack/react-router';
import { WorkspacePage } from '../../features/workspace/index.ts';
import { workspaceSearch } from '../-workspace-search.ts';
import { WORKSPACE_TABS } from '../-workspace-tabs.ts';

export const Route = createFileRoute('/_sidebar/experiment/conversations/$conversationId')({
  validateSearch: workspaceSearch,
  // On entering, the conversation and its newest events are asked for while the session and the
  // route's code load, not after them (not on a link's hover, nor when only the search changes).
  loader: async ({ params, cause }) => {
    if (cause === 'enter') (await import('../../features/conversations/index.ts')).prefetchConversation(params.conversationId);
  },
  component: ExperimentWorkspace,
});

function ExperimentWorkspace() {
  const { conversationId } = Route.useParams();
  const { temp_message } = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <WorkspacePage
      key={conversationId}
      conversationId={conversationId}
      views={WORKSPACE_TABS}
      tempMessage={temp_message ?? null}
      clearTempMessage={() => void navigate({ search: {}, replace: true })}
    />
  );
}

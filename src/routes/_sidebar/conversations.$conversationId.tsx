import { createFileRoute } from '@tanstack/react-router';
import { WorkspacePage, workspaceSearch } from '../../features/workspace/index.ts';
import { WORKSPACE_TABS } from '../-workspace-tabs.ts';

/** The same workspace as /experiment/conversations/$conversationId. */
export const Route = createFileRoute('/_sidebar/conversations/$conversationId')({
  validateSearch: workspaceSearch,
  component: Workspace,
});

function Workspace() {
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

import { createFileRoute, redirect } from '@tanstack/react-router';
import { workspaceSearch } from '../-workspace-search.ts';

/** The same workspace as /experiment/conversations/$conversationId, which the sidebar links to. */
export const Route = createFileRoute('/_sidebar/conversations/$conversationId')({
  validateSearch: workspaceSearch,
  beforeLoad: ({ params, search }) => {
    throw redirect({ to: '/experiment/conversations/$conversationId', params, search, replace: true });
  },
});

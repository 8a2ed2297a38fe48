import { createFileRoute, redirect } from '@tanstack/react-router';
import { workspaceSearch } from '../-workspace-search.ts';

// Spec §1: a conversation may also be named by the query parameter `conversation`.
export const Route = createFileRoute('/_sidebar/experiment/conversations/')({
  beforeLoad: ({ search }) => {
    const conversation = (search as Record<string, unknown>)['conversation'];
    if (typeof conversation === 'string' && conversation !== '')
      throw redirect({
        to: '/experiment/conversations/$conversationId',
        params: { conversationId: conversation },
        search: workspaceSearch(search as Record<string, unknown>),
        replace: true,
      });
    throw redirect({ to: '/dashboard', replace: true });
  },
});

import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { queryKeys } from '../../api/queries.ts';
import { tabRequests } from './requests.ts';

// The workspace tabs' queries: one key scheme with the rest of the app, ['conversations', id, ...].

const FIVE_MINUTES = 5 * 60 * 1000;
const FIFTEEN_MINUTES = 15 * 60 * 1000;
/** While the web app tab is shown, the served apps are asked for this often, so an app started later appears. */
export const WEB_HOSTS_POLL_MS = 3_000;

export const tabKeys = {
  webHosts: (conversationId: string) => queryKeys.conversation(conversationId, 'web-hosts'),
  vscodeUrl: (conversationId: string) => queryKeys.conversation(conversationId, 'vscode-url'),
  listFiles: (conversationId: string, path: string) => queryKeys.conversation(conversationId, 'list-files', path),
  /** Every directory listed (the prefix of `listFiles`). */
  files: (conversationId: string) => queryKeys.conversation(conversationId, 'list-files'),
  changes: (conversationId: string) => queryKeys.conversation(conversationId, 'git', 'changes'),
  diff: (conversationId: string, path: string) => queryKeys.conversation(conversationId, 'git', 'diff', path),
};

/** The served apps' addresses (the server lists only ports something listens on); failures show in the tab. */
export const webHostsQuery = (conversationId: string, enabled: boolean) =>
  queryOptions({
    queryKey: tabKeys.webHosts(conversationId),
    queryFn: ({ signal }) => tabRequests.webHosts(conversationId, signal),
    enabled,
    refetchInterval: WEB_HOSTS_POLL_MS,
    meta: { disableToast: true },
  });

export const vscodeUrlQuery = (conversationId: string, enabled: boolean) =>
  queryOptions({
    queryKey: tabKeys.vscodeUrl(conversationId),
    queryFn: ({ signal }) => tabRequests.vscodeUrl(conversationId, signal),
    enabled,
    meta: { disableToast: true },
  });

/** One directory of the built-in editor's file tree ('' is the workspace root). */
export const listFilesQuery = (conversationId: string, path: string) =>
  queryOptions({
    queryKey: tabKeys.listFiles(conversationId, path),
    queryFn: ({ signal }) => tabRequests.listFiles(conversationId, path === '' ? undefined : path, signal),
  });

/** File changes and diffs: 5 minutes fresh, 15 kept (spec §9); failures show in the tab, not as toasts. */
export const changesQuery = (conversationId: string, enabled: boolean) =>
  queryOptions({
    queryKey: tabKeys.changes(conversationId),
    queryFn: ({ signal }) => tabRequests.changes(conversationId, signal),
    enabled,
    staleTime: FIVE_MINUTES,
    gcTime: FIFTEEN_MINUTES,
    retry: false,
    meta: { disableToast: true },
  });

export const diffQuery = (conversationId: string, path: string) =>
  queryOptions({
    queryKey: tabKeys.diff(conversationId, path),
    queryFn: ({ signal }) => tabRequests.diff(conversationId, path, signal),
    staleTime: FIVE_MINUTES,
    gcTime: FIFTEEN_MINUTES,
    retry: false,
    meta: { disableToast: true },
  });

/** Starts the conversation's stopped apps again; whatever came of it, the served apps are asked for anew. */
export function useStartServedApps(conversationId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => tabRequests.startServedApps(conversationId),
    onSettled: () => queryClient.invalidateQueries({ queryKey: tabKeys.webHosts(conversationId) }),
  });
}

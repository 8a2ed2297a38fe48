import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { components } from '../../../openapi/schema.d.ts';
import { dataOf } from '../../api/client.ts';
import { refreshCurrentUser } from '../../api/queries.ts';
import { apiClient } from '../../app/services.ts';

export type Transaction = components['schemas']['Transaction'];
export type ConversationGroup = components['schemas']['BillingConversationGroup'];
export type UsageBucket = components['schemas']['UsageBucket'];

/** The billing history's calls (openapi/atelier.yaml, auth tag). */
export const historyRequests = {
  conversationGroups: (page: number, signal?: AbortSignal) =>
    dataOf(
      apiClient.GET('/api/auth/transactions/conversation-groups', {
        params: { query: { page, per_page: 10 } },
        signal,
      }),
    ),
  other: (page: number, signal?: AbortSignal) =>
    dataOf(apiClient.GET('/api/auth/transactions/other', { params: { query: { page, per_page: 5 } }, signal })),
  category: (
    conversationId: string,
    bucket: { category: 'llm' | 'droplet'; subcategory?: 'devops' | 'chat' },
    page: number,
    signal?: AbortSignal,
  ) =>
    dataOf(
      apiClient.GET('/api/auth/transactions/category/{conversation_id}', {
        params: { path: { conversation_id: conversationId }, query: { ...bucket, page, per_page: 10 } },
        signal,
      }),
    ),
};

export const historyKeys = {
  groups: (page: number) => ['user', 'billing', 'groups', page] as const,
  other: (page: number) => ['user', 'billing', 'other', page] as const,
  category: (conversationId: string, bucket: string, page: number) =>
    ['user', 'billing', 'category', conversationId, bucket, page] as const,
};

/** POST /api/auth/purchase-credits: the new balance, or the payment provider's page to continue on. */
export const purchaseCredits = ({ amount, idempotencyKey }: { amount: number; idempotencyKey: string }) =>
  dataOf(
    apiClient.POST('/api/auth/purchase-credits', {
      body: { amount },
      params: { header: { 'Idempotency-Key': idempotencyKey } },
    }),
  );

/** PATCH /api/auth/me: the name (the email is not changed here); the account is read again everywhere. */
export function useUpdateProfile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fullname: string) => dataOf(apiClient.PATCH('/api/auth/me', { body: { fullname } })),
    onSuccess: () => refreshCurrentUser(queryClient),
    meta: { disableToast: true },
  });
}

/** The balance changed (a purchase, a paid checkout): the user's credits and the billing history are asked again. */
export function refreshBalance(queryClient: QueryClient) {
  void refreshCurrentUser(queryClient);
  void queryClient.invalidateQueries({ queryKey: ['user', 'billing'] });
}

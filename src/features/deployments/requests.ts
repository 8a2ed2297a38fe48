import { useMutation, useQueryClient } from '@tanstack/react-query';
import { deploymentsQuery } from '../../api/queries.ts';
import { requests } from '../../app/services.ts';

/** Deletes one of the conversation's deployments; once `onDeleted` has run, its deployments are read again. */
export function useDeleteDeployment(conversationId: string, onDeleted: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => requests.deleteDeployment(conversationId, name),
    onSuccess: async () => {
      onDeleted();
      await queryClient.invalidateQueries({ queryKey: deploymentsQuery(requests, conversationId).queryKey });
    },
    meta: { disableToast: true },
  });
}

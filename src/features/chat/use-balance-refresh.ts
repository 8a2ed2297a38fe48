import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { queryKeys } from '../../api/queries.ts';
import { useClientConfig } from '../../app/hooks.ts';
import type { ConversationStream } from '../../realtime/types.ts';
import { useStreamSelector } from '../../realtime/use-stream-selector.ts';
import { sessionCost } from './session-cost.ts';

/** Spec §4: when the session's cost rises, the balance (the signed-in user) is read again. */
export function useBalanceRefresh(stream: ConversationStream) {
  const hosted = useClientConfig()?.APP_MODE === 'saas';
  const cost = useStreamSelector(stream, (snapshot) => sessionCost(snapshot.events));
  const queryClient = useQueryClient();
  const seen = useRef(cost);
  useEffect(() => {
    const rose = cost > seen.current;
    seen.current = cost;
    if (hosted && rose) void queryClient.invalidateQueries({ queryKey: queryKeys.currentUser });
  }, [cost, hosted, queryClient]);
}

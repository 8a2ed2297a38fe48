import { useCallback, useSyncExternalStore } from 'react';
import type { ConversationStream, StreamSnapshot } from './types.ts';

/** A value selected from the stream's snapshot; re-renders only when the selected value changes (by identity). */
export function useStreamSelector<T>(stream: ConversationStream, selector: (snapshot: StreamSnapshot) => T): T {
  const getSelected = useCallback(() => selector(stream.getSnapshot()), [stream, selector]);
  return useSyncExternalStore(stream.subscribe, getSelected);
}

import type { NewEvent } from './events.ts';

/** Translation keys of status updates (the `status_id` the client looks up). */
export const Status = {
  STARTING_RUNTIME: 'STATUS$STARTING_RUNTIME',
  RUNTIME_STARTED: 'STATUS$RUNTIME_STARTED',
  REPLAYING: 'STATUS$REPLAYING_TRAJECTORY',
  REPOSITORY_READY: 'STATUS$REPOSITORY_CHECKED_OUT',
  REPOSITORY_FAILED: 'STATUS$ERROR_REPOSITORY_CHECKOUT',
  READY: 'STATUS$READY',
  STOPPED: 'STATUS$STOPPED',
  ERROR: 'STATUS$ERROR',
  TITLE_UPDATED: 'STATUS$CONVERSATION_TITLE_UPDATED',
  SANDBOX_UNAVAILABLE: 'STATUS$ERROR_SANDBOX_UNAVAILABLE',
} as const;

/** A limit the conversation reached, by kind (runtime/limits.ts). */
export const LimitStatus = {
  memory: 'STATUS$ERROR_OUT_OF_MEMORY',
  processes: 'STATUS$ERROR_PROCESS_LIMIT',
  disk: 'STATUS$ERROR_OUT_OF_DISK',
} as const;

/** A status update event: shown in the status bar (info) or in the chat (error). */
export function statusUpdate(
  statusId: string,
  message: string,
  type: 'info' | 'error' = 'info',
  extra: Partial<NewEvent> = {},
): NewEvent {
  return { source: 'environment', status_update: true, type, status_id: statusId, message, ...extra };
}

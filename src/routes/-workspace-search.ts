// The workspace url's query, read in the route's eager part: importing it must not pull the
// workspace (flexlayout and the tabs) into the first bundle.

export interface WorkspaceSearch {
  /** The prompt to send once connected (from the home page). */
  temp_message?: string;
  /** Where the user came from: `onboarding` after the chat-only onboarding's upgrade. */
  from?: 'onboarding';
}

export function workspaceSearch(search: Record<string, unknown>): WorkspaceSearch {
  return {
    ...(typeof search['temp_message'] === 'string' && search['temp_message'] !== ''
      ? { temp_message: search['temp_message'] }
      : {}),
    ...(search['from'] === 'onboarding' ? { from: 'onboarding' as const } : {}),
  };
}

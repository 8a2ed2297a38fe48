/** The workspace url's query: temp_message, the prompt to send once connected. */
export interface WorkspaceSearch {
  temp_message?: string;
}

export function workspaceSearch(search: Record<string, unknown>): WorkspaceSearch {
  return typeof search['temp_message'] === 'string' && search['temp_message'] !== '' ? { temp_message: search['temp_message'] } : {};
}

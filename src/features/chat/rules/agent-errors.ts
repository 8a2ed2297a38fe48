// An agent error block's message, looked up by the event's error_id (the server's translation
// keys); an unknown id gets the generic agent-error message.

const AGENT_ERROR_KEYS = {
  AGENT_ERROR$MAX_ITERATIONS: 'agentErrors.maxIterations',
  AGENT_ERROR$BUDGET_EXCEEDED: 'agentErrors.budgetExceeded',
  AGENT_ERROR$STUCK_IN_LOOP: 'agentErrors.stuckInLoop',
  AGENT_ERROR$ERROR_ACTION_NOT_EXECUTED: 'agentErrors.actionNotExecuted',
  STATUS$ERROR_LLM_SERVICE_UNAVAILABLE: 'agentErrors.llmServiceUnavailable',
  STATUS$ERROR_LLM_AUTHENTICATION: 'agentErrors.llmAuthentication',
  STATUS$ERROR_LLM_INTERNAL_SERVER_ERROR: 'agentErrors.llmInternalServerError',
  STATUS$ERROR_LLM_OUT_OF_CREDITS: 'agentErrors.llmOutOfCredits',
  STATUS$ERROR_LLM_CONTENT_POLICY_VIOLATION: 'agentErrors.llmContentPolicy',
  STATUS$ERROR_LLM_RATE_LIMITED: 'agentErrors.llmRateLimited',
  STATUS$ERROR_LLM_NOT_FOUND: 'agentErrors.llmNotFound',
  STATUS$ERROR_LLM_NOT_CONFIGURED: 'agentErrors.llmNotConfigured',
  STATUS$ERROR_LLM_CONTEXT_WINDOW: 'agentErrors.llmContextWindow',
  STATUS$ERROR_LLM_BAD_REQUEST: 'agentErrors.llmBadRequest',
  STATUS$ERROR_LLM_UNKNOWN: 'agentErrors.llmUnknown',
  STATUS$ERROR_MCP_SERVER: 'agentErrors.mcpServer',
  STATUS$ERROR_SANDBOX_UNAVAILABLE: 'agentErrors.sandboxUnavailable',
  STATUS$ERROR_OUT_OF_MEMORY: 'agentErrors.outOfMemory',
  STATUS$ERROR_PROCESS_LIMIT: 'agentErrors.processLimit',
  STATUS$ERROR_OUT_OF_DISK: 'agentErrors.outOfDisk',
} as const;

export type AgentErrorKey = (typeof AGENT_ERROR_KEYS)[keyof typeof AGENT_ERROR_KEYS];

/** The chat-namespace key for an error id, or null when the id is unknown (the view says 'The agent ran into a problem.'). */
export function agentErrorKey(errorId: string | null | undefined): AgentErrorKey | null {
  if (!errorId || !Object.hasOwn(AGENT_ERROR_KEYS, errorId)) return null;
  return AGENT_ERROR_KEYS[errorId as keyof typeof AGENT_ERROR_KEYS];
}

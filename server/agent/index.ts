/**
 * The agent (ARCHITECTURE.md §7). The conversations module creates one session per running
 * conversation with `createAgentSession(host)` and passes it the user's `message` and
 * `change_agent_state` actions. The session emits every event of the agent's side — the
 * user's message event too, so that the recall and the actions that follow it are linked to
 * its id — through `host.emit`.
 */
import type { AgentFactory, McpConfig } from './types.ts';
import { BUILT_IN_TOOL_NAMES } from './tools/index.ts';
import { checkMcpServers as checkServers } from './tools/mcp.ts';
import { createAgentSession } from './session.ts';

export { createAgentSession, type AgentOptions } from './session.ts';
export { NO_MODEL_CONFIGURED } from './llm/provider.ts';
export { testModelConnection } from './llm/connection-test.ts';
export { type McpServerCheck } from './tools/mcp.ts';

/** The settings' check of the user's MCP servers, naming tools as this agent will (its built-in tools come first). */
export const checkMcpServers = (
  config: McpConfig,
  options: Omit<Parameters<typeof checkServers>[1], 'reservedNames'>,
): ReturnType<typeof checkServers> => checkServers(config, { ...options, reservedNames: BUILT_IN_TOOL_NAMES });
export type {
  AgentFactory,
  AgentHost,
  AgentSession,
  AgentSettings,
  AgentState,
  LlmSettings,
  McpConfig,
  NewEvent,
} from './types.ts';

/** The factory the conversations module is given. */
export const agentFactory: AgentFactory = (host) => createAgentSession(host);
export { runDevopsTurn } from './devops/turn.ts';
export type { DeployPlan, DevopsDeployment, DevopsHost, DevopsReply, DevopsSize } from './devops/types.ts';
export { ModelCallError } from './llm/errors.ts';
export { answerOnce } from './llm/answer.ts';

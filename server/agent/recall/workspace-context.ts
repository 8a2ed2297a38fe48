import type { AgentHost } from '../types.ts';
import type { EventExtras } from '../tools/tool.ts';
import { loadMicroagents, triggeredKnowledge, type KnowledgeMicroagent } from './microagents.ts';

/** Served-app URL → port: the URL where the user reaches what the agent serves on that port. */
export function runtimeHostPorts(host: Pick<AgentHost, 'runtimeHosts' | 'runtime'>): Record<string, number> {
  return Object.fromEntries(
    host.runtimeHosts.flatMap((url, index) =>
      host.runtime.ports[index] === undefined ? [] : [[url, host.runtime.ports[index]]],
    ),
  );
}

/**
 * What the agent recalls for the user's messages: the workspace context with the first
 * message, and the knowledge microagents each later message triggers (each one once).
 */
export class Recall {
  private knowledge: KnowledgeMicroagent[] | null = null;
  private readonly recalled = new Set<string>();

  constructor(private readonly host: AgentHost) {}

  private get baseDir(): string {
    return this.host.settings.repository?.directory ?? '.';
  }

  private newKnowledge(message: string) {
    const found = triggeredKnowledge(this.knowledge ?? [], message).filter((entry) => !this.recalled.has(entry.name));
    for (const entry of found) this.recalled.add(entry.name);
    return found;
  }

  /** Remembers the microagents already recalled earlier in the conversation (after a restart). */
  restore(previous: readonly EventExtras[]): void {
    for (const extras of previous) for (const entry of extras.microagent_knowledge ?? []) this.recalled.add(entry.name);
  }

  async workspaceContext(message: string, now: Date): Promise<EventExtras> {
    const { settings } = this.host;
    const microagents = await loadMicroagents(this.host.runtime, this.baseDir);
    this.knowledge = microagents.knowledge;
    return {
      recall_type: 'workspace_context',
      repo_name: settings.repository?.name ?? '',
      repo_directory: settings.repository?.directory ?? '',
      date: now.toISOString().slice(0, 10),
      runtime_hosts: runtimeHostPorts(this.host),
      repo_instructions: microagents.repoInstructions,
      additional_agent_instructions: settings.conversationInstructions ?? '',
      microagent_knowledge: this.newKnowledge(message),
      custom_secrets_descriptions: settings.customSecretsDescriptions,
    };
  }

  /** Knowledge for a later message, or null when it triggers nothing new. */
  async knowledgeFor(message: string): Promise<EventExtras | null> {
    this.knowledge ??= (await loadMicroagents(this.host.runtime, this.baseDir)).knowledge;
    const found = this.newKnowledge(message);
    return found.length === 0 ? null : { recall_type: 'knowledge', microagent_knowledge: found };
  }
}

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
 * message; with each later one, the knowledge microagents it triggers (each one once) and the
 * repository's instructions when they changed. Microagents are read again for every message:
 * one added or edited since (by the agent, the user or a pull) counts from then on.
 */
export class Recall {
  private readonly recalled = new Set<string>();
  /** The repository instructions the model has now; null before the first message. */
  private instructions: string | null = null;

  constructor(private readonly host: AgentHost) {}

  private get baseDir(): string {
    return this.host.settings.repository?.directory ?? '.';
  }

  private newKnowledge(knowledge: readonly KnowledgeMicroagent[], message: string) {
    const found = triggeredKnowledge(knowledge, message).filter((entry) => !this.recalled.has(entry.name));
    for (const entry of found) this.recalled.add(entry.name);
    return found;
  }

  /** Remembers the microagents already recalled earlier in the conversation (after a restart). */
  restore(previous: readonly EventExtras[]): void {
    for (const extras of previous) {
      for (const entry of extras.microagent_knowledge ?? []) this.recalled.add(entry.name);
      if (extras.repo_instructions !== undefined) this.instructions = extras.repo_instructions;
    }
  }

  async workspaceContext(message: string, now: Date): Promise<EventExtras> {
    const { settings } = this.host;
    const microagents = await loadMicroagents(this.host.runtime, this.baseDir);
    this.instructions = microagents.repoInstructions;
    return {
      recall_type: 'workspace_context',
      repo_name: settings.repository?.name ?? '',
      repo_directory: settings.repository?.directory ?? '',
      date: now.toISOString().slice(0, 10),
      runtime_hosts: runtimeHostPorts(this.host),
      repo_instructions: microagents.repoInstructions,
      additional_agent_instructions: settings.conversationInstructions ?? '',
      microagent_knowledge: this.newKnowledge(microagents.knowledge, message),
      custom_secrets_descriptions: settings.customSecretsDescriptions,
    };
  }

  /** Knowledge for a later message and changed instructions, or null when there is nothing new. */
  async knowledgeFor(message: string): Promise<EventExtras | null> {
    const microagents = await loadMicroagents(this.host.runtime, this.baseDir);
    const found = this.newKnowledge(microagents.knowledge, message);
    const changed = microagents.repoInstructions !== (this.instructions ?? '');
    this.instructions = microagents.repoInstructions;
    if (found.length === 0 && !changed) return null;
    return {
      recall_type: 'knowledge',
      microagent_knowledge: found,
      ...(changed && { repo_instructions: microagents.repoInstructions }),
    };
  }
}

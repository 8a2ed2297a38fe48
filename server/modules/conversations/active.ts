import type { AgentSession } from '../../agent/types.ts';
import type { RuntimeSession } from '../../runtime/types.ts';
import type { TerminalState } from './terminal.ts';

/** What this node holds for one conversation it runs: the runtime session and the agent. */
export class ActiveConversation {
  session: RuntimeSession | null = null;
  agent: AgentSession | null = null;
  /** The git tokens the runtime holds (by variable) and the providers they were asked for. */
  gitTokens: { providers: string[] | undefined; values: Record<string, string> } | null = null;
  /** Set once the database row names this node as owner (the lease is then renewed). */
  claimed = false;
  stopping = false;
  /** Settles when start-up ends: true when running, false when it failed or was stopped. */
  ready: Promise<boolean> = Promise.resolve(false);
  /** Takes from the inbox, one after another. */
  inbox: Promise<void> = Promise.resolve();
  readonly terminalState: TerminalState = { running: false };
  /** Terminal commands run one after another, in the order they were sent. */
  private terminal: Promise<void> = Promise.resolve();

  constructor(
    readonly id: string,
    readonly userId: string,
  ) {}

  /** Queues `task` behind earlier terminal commands. */
  inTerminal(task: () => Promise<void>): Promise<void> {
    this.terminal = this.terminal.then(task, task);
    return this.terminal;
  }
}

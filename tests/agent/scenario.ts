import { tempRuntime, type TempRuntime } from '../support/temp-runtime.ts';
import { AppProxy } from '../../server/modules/conversations/app-proxy.ts';
import { SecretBox } from '../../server/shared/secret-box.ts';
import { createAgentSession, type AgentOptions } from '../../server/agent/index.ts';
import type { AgentSession, AgentSettings } from '../../server/agent/types.ts';
import { FakeLlm, reply, withTools, withoutTools } from '../support/fake-llm/index.ts';
import { MemoryHost, testSettings } from './memory-host.ts';
import type { Event } from '../../openapi/types.ts';

/** The title the session asks for after the first message (a call without tools). */
export const titleReply = reply.text('Title', { when: withoutTools });
/** The model ends the task. */
export const finishReply = reply.toolCall('finish', { message: 'Done.' }, { when: withTools });

/** Retries without the production waits, so rate-limit scenarios take milliseconds. */
export const FAST_RETRIES = { maxRetries: 2, initialDelayMs: 20, maxDelayMs: 50 };

export interface Scenario {
  llm: FakeLlm;
  store: MemoryHost;
  session: AgentSession;
  /** Sends a user message as the browser would. */
  say(content: string): void;
  /** Sends change_agent_state. */
  setState(state: 'PAUSED' | 'STOPPED' | 'RUNNING' | 'USER_CONFIRMED' | 'USER_REJECTED'): void;
  close(): Promise<void>;
}

/**
 * One real runtime per test file (a workspace per scenario), started lazily: scenarios that
 * never touch the workspace still get a real RuntimeSession.
 */
export class ScenarioFactory {
  private runtime: Promise<TempRuntime> | null = null;
  private count = 0;
  /** The apps a scenario's workspace serves are reached as in the product: through the app proxy, which lets the agent's browser in. */
  private readonly apps = new AppProxy({
    host: '127.0.0.1',
    box: new SecretBox('scenario secret of at least thirty-two characters'),
    publicUrl: 'http://localhost:3000',
    log: { warn: () => undefined },
  });

  async start(
    options: {
      settings?: Partial<AgentSettings>;
      balanceMicros?: bigint;
      history?: Event[];
      agent?: AgentOptions;
      /** Prepares the fake model before the session starts. */
      script?: (llm: FakeLlm) => void;
      /** Puts files in the workspace (its directory on the host) before the session starts. */
      workspace?: (dir: string) => Promise<void>;
      /** The model id the settings name (the fake answers any). */
      model?: string;
    } = {},
  ): Promise<Scenario> {
    this.runtime ??= tempRuntime();
    const llm = new FakeLlm();
    const baseUrl = await llm.start();
    options.script?.(llm);
    const id = `scenario-${++this.count}`;
    const runtime = await (await this.runtime).runtime.start(id);
    await this.apps.open(id, 'scenario-user', runtime);
    await options.workspace?.(runtime.workspaceDir);
    const store = new MemoryHost({
      runtime,
      settings: testSettings({ baseUrl, model: options.model, ...options.settings }),
      balanceMicros: options.balanceMicros,
      history: options.history,
    });
    const session = createAgentSession(store.host, { retryPolicy: FAST_RETRIES, ...options.agent });
    return {
      llm,
      store,
      session,
      say: (content) => session.handle({ action: 'message', args: { content } }),
      setState: (state) => session.handle({ action: 'change_agent_state', args: { agent_state: state } }),
      async close() {
        await session.stop();
        await llm.stop();
      },
    };
  }

  async cleanup(): Promise<void> {
    await this.apps.closeAll();
    if (this.runtime) await (await this.runtime).cleanup();
  }
}

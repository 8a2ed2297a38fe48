import type { NewEvent } from '../../server/agent/types.ts';
import type { Event } from '../../openapi/types.ts';

/** Builds event histories for the context tests: ids and timestamps as the store would give them. */
export class HistoryBuilder {
  readonly events: Event[] = [];
  private responses = 0;

  add(event: NewEvent): Event {
    const stored: Event = {
      ...event,
      id: this.events.length,
      timestamp: new Date(Date.UTC(2026, 0, 1, 0, 0, this.events.length)).toISOString(),
    };
    this.events.push(stored);
    return stored;
  }

  userMessage(content: string): Event {
    return this.add({ source: 'user', action: 'message', args: { content } });
  }

  agentMessage(content: string): Event {
    return this.add({ source: 'agent', action: 'message', args: { content } });
  }

  recall(cause: number): Event {
    return this.add({
      source: 'agent',
      observation: 'recall',
      cause,
      extras: { recall_type: 'workspace_context', date: '2026-01-01', repo_instructions: 'Use pnpm.' },
    });
  }

  /** One model response with tool calls; returns the action events. */
  toolCalls(calls: { name: string; input: Record<string, unknown> }[], thought = ''): Event[] {
    const responseId = `response-${++this.responses}`;
    return calls.map((call, index) =>
      this.add({
        source: 'agent',
        action: call.name === 'execute_bash' ? 'run' : 'think',
        args: {
          ...call.input,
          thought: index === 0 ? thought : '',
          tool_call_metadata: {
            function_name: call.name,
            tool_call_id: `${responseId}-call-${index}`,
            model_response_id: responseId,
            arguments: call.input,
          },
        },
      }),
    );
  }

  result(action: Event, content: string, extras: Event['extras'] = {}): Event {
    return this.add({
      source: 'agent',
      observation: action.action === 'run' ? 'run' : 'think',
      cause: action.id,
      content,
      extras,
    });
  }
}

/** A pseudo-random but repeatable history: tool calls (sometimes several per response, sometimes unanswered), user messages in between. */
export function randomHistory(seed: number, steps: number): HistoryBuilder {
  let state = seed;
  const random = () => (state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const history = new HistoryBuilder();
  history.recall(history.userMessage('Build me a todo app').id);
  for (let step = 0; step < steps; step++) {
    const count = random() < 0.25 ? 2 : 1;
    const calls = Array.from({ length: count }, (_, i) => ({
      name: 'execute_bash',
      input: { command: `step ${step}.${i} ${'x'.repeat(Math.floor(random() * 400))}` },
    }));
    const actions = history.toolCalls(calls, random() < 0.5 ? `thinking about step ${step}` : '');
    if (random() < 0.15) history.userMessage(`interjection ${step}`);
    for (const action of actions)
      if (random() < 0.9) history.result(action, `output ${step} ${'y'.repeat(Math.floor(random() * 800))}`);
    if (random() < 0.1) history.agentMessage(`progress ${step}`);
  }
  return history;
}

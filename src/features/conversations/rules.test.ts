import { describe, expect, it } from 'vitest';
import {
  budgetUse,
  changeConversation,
  contextUse,
  latestMetricsOf,
  systemMessageOf,
  toolParameters,
  withoutConversation,
  workspaceZipName,
} from './rules.ts';
import { conversationRecord } from '../../../tests/support/records.ts';
import type { Conversation, Event } from '../../../openapi/types.ts';

const at = '2026-01-01T00:00:00Z';
const usage = {
  prompt_tokens: 10,
  completion_tokens: 5,
  cache_read_tokens: 0,
  cache_write_tokens: 0,
  per_turn_token: 15,
  context_window: 1000,
};
const conversation = (id: string, title: string): Conversation =>
  conversationRecord({ conversation_id: id, title, created_at: at, last_updated_at: at });

describe('conversation rules', () => {
  it('reads the system message, agent and tools from the system action', () => {
    const events: Event[] = [
      {
        id: 0,
        source: 'agent',
        timestamp: at,
        action: 'system',
        args: { content: 'You are an agent', agent_class: 'CodeActAgent', platform_version: '1.0', tools: [] },
      },
    ];
    expect(systemMessageOf(events)).toEqual({
      content: 'You are an agent',
      agentClass: 'CodeActAgent',
      version: '1.0',
      tools: [],
    });
    expect(systemMessageOf([])).toBeNull();
  });

  it('takes the newest metrics as the total', () => {
    const events: Event[] = [
      {
        id: 1,
        source: 'agent',
        timestamp: at,
        llm_metrics: { accumulated_cost: 0.1, max_budget_per_task: null, accumulated_token_usage: usage },
      },
      {
        id: 2,
        source: 'agent',
        timestamp: at,
        llm_metrics: { accumulated_cost: 0.3, max_budget_per_task: null, accumulated_token_usage: usage },
      },
      { id: 3, source: 'user', timestamp: at },
    ];
    expect(latestMetricsOf(events)?.accumulated_cost).toBe(0.3);
    expect(latestMetricsOf([])).toBeNull();
  });

  it('lists tool parameters with their descriptions and whether they are required', () => {
    const tool = {
      name: 'execute_bash',
      description: 'Runs a command',
      parameters: {
        type: 'object',
        properties: { command: { description: 'The command' }, timeout: {} },
        required: ['command'],
      },
    };
    expect(toolParameters(tool)).toEqual([
      { name: 'command', description: 'The command', required: true },
      { name: 'timeout', description: '', required: false },
    ]);
  });

  it('changes or removes one conversation of the list', () => {
    const list = [conversation('a', 'A'), conversation('b', 'B')];
    expect(changeConversation(list, 'b', { title: 'C' }).map((entry) => entry.title)).toEqual(['A', 'C']);
    expect(withoutConversation(list, 'a').map((entry) => entry.conversation_id)).toEqual(['b']);
    expect(workspaceZipName('a')).toBe('workspace-a.zip');
  });
});

describe('metrics bars', () => {
  const metrics = (cost: number, budget: number | null, used = 0, size = 0) => ({
    accumulated_cost: cost,
    max_budget_per_task: budget,
    accumulated_token_usage: {
      prompt_tokens: 0,
      completion_tokens: 0,
      cache_read_tokens: 0,
      cache_write_tokens: 0,
      per_turn_token: used,
      context_window: size,
    },
  });

  it('fills the budget bar with the spend and turns it red above 80%', () => {
    expect(budgetUse(metrics(0.5, null))).toBeNull();
    expect(budgetUse(metrics(4, 5))).toEqual({ percent: 80, warning: false });
    expect(budgetUse(metrics(4.01, 5))?.warning).toBe(true);
    expect(budgetUse(metrics(7, 5))).toEqual({ percent: 100, warning: true });
  });

  it('caps the context-window bar at 100%, and has none when the window is unknown', () => {
    expect(contextUse(metrics(0, null, 50_000, 200_000))).toBe(25);
    expect(contextUse(metrics(0, null, 250_000, 200_000))).toBe(100);
    expect(contextUse(metrics(0, null, 10, 0))).toBeNull();
  });
});

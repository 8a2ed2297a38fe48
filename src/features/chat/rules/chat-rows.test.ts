import { describe, expect, it } from 'vitest';
import {
  chatRows,
  createRowCache,
  createRowsSelector,
  editableText,
  forkPoint,
  isAtBottom,
  isReaderScroll,
  lastAgentRowId,
} from './chat-rows.ts';
import { mergeEvents } from '../../../realtime/merge.ts';
import type { Event } from '../../../../openapi/types.ts';

const at = '2026-01-01T00:00:00Z';
const userMessage = (id: number, content = 'hi'): Event => ({
  id,
  source: 'user',
  timestamp: at,
  action: 'message',
  args: { content },
});
const run = (id: number, hidden = false): Event => ({
  id,
  source: 'agent',
  timestamp: at,
  action: 'run',
  args: { command: 'ls', hidden },
});
const runResult = (id: number, cause: number, hidden = false): Event => ({
  id,
  source: 'agent',
  timestamp: at,
  observation: 'run',
  cause,
  content: 'a.txt',
  extras: { hidden, metadata: { exit_code: 0 } },
});
const stateChange = (id: number, agent_state: 'RUNNING' | 'ERROR'): Event => ({
  id,
  source: 'agent',
  timestamp: at,
  observation: 'agent_state_changed',
  extras: { agent_state },
});

describe('chat rows', () => {
  it('joins an observation to the action that caused it', () => {
    const rows = chatRows([userMessage(1), run(2), runResult(3, 2)], createRowCache());
    expect(rows.map((row) => row.kind)).toEqual(['message', 'action']);
    expect(rows[1]).toMatchObject({ kind: 'action', id: 2, observation: { id: 3 } });
  });

  it('leaves out hidden runs, state changes other than ERROR, info status updates and system actions', () => {
    const events: Event[] = [
      run(1, true),
      runResult(2, 1, true),
      stateChange(3, 'RUNNING'),
      { id: 4, source: 'environment', timestamp: at, status_update: true, type: 'info', message: 'ok' },
      { id: 5, source: 'agent', timestamp: at, action: 'system', args: {} },
      stateChange(6, 'ERROR'),
      { id: 7, source: 'environment', timestamp: at, status_update: true, type: 'error', message: 'bad' },
    ];
    expect(chatRows(events, createRowCache()).map((row) => [row.kind, row.id])).toEqual([
      ['agentStateError', 6],
      ['statusError', 7],
    ]);
  });

  it('shows a problem once: the ERROR state change right after the error status update with the same reason adds no row', () => {
    const reason = 'No language model is configured.';
    const statusError = (id: number, message: string): Event => ({
      id,
      source: 'agent',
      timestamp: at,
      status_update: true,
      type: 'error',
      status_id: 'STATUS$ERROR_LLM_NOT_CONFIGURED',
      message,
    });
    const errorState = (id: number, text: string): Event => ({
      id,
      source: 'agent',
      timestamp: at,
      observation: 'agent_state_changed',
      content: text,
      extras: { agent_state: 'ERROR', reason: text },
    });
    const events: Event[] = [
      statusError(0, reason),
      errorState(1, reason),
      userMessage(2),
      statusError(3, reason),
      // An info update between the two does not split them.
      { id: 4, source: 'agent', timestamp: at, status_update: true, type: 'info', message: 'Title' },
      errorState(5, ` ${reason}`),
      statusError(6, 'Another problem'),
      errorState(7, reason),
    ];
    expect(chatRows(events, createRowCache()).map((row) => [row.kind, row.id])).toEqual([
      ['statusError', 0],
      ['message', 2],
      ['statusError', 3],
      ['statusError', 6],
      // A different reason is a different problem.
      ['agentStateError', 7],
    ]);
  });

  it('shows error and recall observations on their own', () => {
    const events: Event[] = [
      {
        id: 1,
        source: 'agent',
        timestamp: at,
        observation: 'error',
        content: 'boom',
        extras: { error_id: 'AGENT_ERROR$MAX_ITERATIONS' },
      },
      {
        id: 2,
        source: 'environment',
        timestamp: at,
        observation: 'recall',
        extras: { recall_type: 'workspace_context' },
      },
    ];
    expect(chatRows(events, createRowCache()).map((row) => row.kind)).toEqual(['observation', 'observation']);
  });

  it('keeps the identity of unchanged rows when an event is appended', () => {
    const cache = createRowCache();
    const events = [userMessage(1), run(2)];
    const before = chatRows(events, cache);
    const after = chatRows([...events, runResult(3, 2), userMessage(4)], cache);
    expect(after[0]).toBe(before[0]);
    expect(after[1]).not.toBe(before[1]);
    expect(after).toHaveLength(3);
  });

  it('the selector recomputes only for a new events array', () => {
    const select = createRowsSelector();
    const events = [userMessage(1)];
    expect(select({ events })).toBe(select({ events }));
    expect(select({ events: [...events] })).not.toBe(select({ events }));
  });

  it('the selector builds the rows of a history growing event by event, then getting an older page, as one build of it', () => {
    const statusError = (id: number): Event =>
      ({
        id,
        source: 'environment',
        timestamp: at,
        status_update: true,
        type: 'error',
        status_id: 'STATUS$ERROR',
        message: 'out of credit',
      }) as Event;
    const stateError = (id: number): Event => ({
      ...stateChange(id, 'ERROR'),
      extras: { agent_state: 'ERROR', reason: 'out of credit' },
    });
    // Results joining their step (also several steps later, and a second one standing alone), a hidden step, one error reported twice.
    const newer = [
      userMessage(10),
      run(11),
      runResult(12, 11),
      run(13),
      run(14),
      runResult(15, 14),
      runResult(16, 13),
      runResult(17, 13),
      run(18, true),
      runResult(19, 18, true),
      stateChange(20, 'RUNNING'),
      statusError(21),
      stateError(22),
      userMessage(23),
      run(24),
    ];
    const older = [userMessage(1), run(2), runResult(3, 2), statusError(4)];
    const select = createRowsSelector();
    let events: readonly Event[] = [];
    let previous = select({ events });
    for (const event of newer) {
      events = mergeEvents(events, [event]);
      const rows = select({ events });
      expect(rows).toEqual(chatRows(events, createRowCache()));
      // A new array for a new history, whose rows before the change keep their identity.
      expect(rows).not.toBe(previous);
      if (previous.length > 0) expect(rows[0]).toBe(previous[0]);
      previous = rows;
    }
    expect(previous.map((row) => [row.kind, row.id])).toEqual([
      ['message', 10],
      ['action', 11],
      ['action', 13],
      ['action', 14],
      ['observation', 17],
      ['statusError', 21],
      ['message', 23],
      ['action', 24],
    ]);
    events = mergeEvents(events, [...older].reverse());
    expect(select({ events })).toEqual(chatRows(events, createRowCache()));
    expect(
      select({ events })
        .map((row) => row.id)
        .slice(0, 4),
    ).toEqual([1, 2, 4, 10]);
  });

  it('draws an action of confirmation mode once: the decision joins the row that awaited it, then its result', () => {
    const stated = (id: number, confirmation_state: 'awaiting_confirmation' | 'confirmed' | 'rejected', call = 'c1') =>
      ({
        ...run(id),
        args: {
          command: 'rm -rf scratch',
          confirmation_state,
          tool_call_metadata: {
            function_name: 'execute_bash',
            tool_call_id: call,
            model_response_id: null,
            arguments: {},
          },
        },
      }) as Event;
    const awaiting = stated(1, 'awaiting_confirmation');
    expect(chatRows([awaiting], createRowCache())).toEqual([
      { kind: 'action', id: 1, event: awaiting, observation: null, decision: null },
    ]);
    const confirmed = stated(2, 'confirmed');
    const rows = chatRows([awaiting, confirmed, runResult(3, 1)], createRowCache());
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ id: 1, decision: { id: 2 }, observation: { id: 3 } });
    const rejection: Event = {
      id: 6,
      source: 'agent',
      timestamp: at,
      observation: 'user_rejected',
      cause: 4,
      content: 'no',
    };
    const rejected = chatRows(
      [stated(4, 'awaiting_confirmation', 'c2'), stated(5, 'rejected', 'c2'), rejection],
      createRowCache(),
    );
    expect(rejected).toHaveLength(1);
    expect(rejected[0]).toMatchObject({ id: 4, decision: { id: 5 }, observation: { id: 6 } });
    // Grown event by event, the selector builds the same one row.
    const select = createRowsSelector();
    select({ events: [awaiting] });
    select({ events: [awaiting, confirmed] });
    expect(select({ events: [awaiting, confirmed, runResult(3, 1)] })).toEqual(rows);
  });

  it('finds the last agent row for confirm and reject', () => {
    const rows = chatRows([run(1), userMessage(2)], createRowCache());
    expect(lastAgentRowId(rows)).toBe(1);
    expect(lastAgentRowId(chatRows([userMessage(1)], createRowCache()))).toBeNull();
  });
});

describe('forks from a row', () => {
  it("fork after a step's result, at a message itself, and nowhere on rows that are no point of the history", () => {
    const agentMessage: Event = { id: 5, source: 'agent', timestamp: at, action: 'message', args: { content: 'done' } };
    const error: Event = { id: 6, source: 'agent', timestamp: at, status_update: true, type: 'error', message: 'x' };
    const rows = chatRows(
      [userMessage(0, 'make it'), run(1), runResult(2, 1), run(3), agentMessage, error],
      createRowCache(),
    );
    expect(rows.map(forkPoint)).toEqual([0, 2, 3, 5, null]);
    expect(forkPoint({ kind: 'pending', id: 'p', message: { id: 'p', content: 'x', timestamp: at } })).toBeNull();
  });

  it("edit only the user's own messages, starting from their text", () => {
    const rows = chatRows(
      [
        userMessage(0, 'make it blue'),
        { id: 1, source: 'agent', timestamp: at, action: 'message', args: { content: 'ok' } },
      ],
      createRowCache(),
    );
    expect(rows.map(editableText)).toEqual(['make it blue', null]);
  });
});

describe('auto-scroll', () => {
  it('counts as at the bottom within 20 px of the end', () => {
    const end = { scrollHeight: 1000, clientHeight: 400 };
    expect(isAtBottom({ ...end, scrollTop: 600 })).toBe(true);
    expect(isAtBottom({ ...end, scrollTop: 580 })).toBe(true);
    expect(isAtBottom({ ...end, scrollTop: 579 })).toBe(false);
  });

  it('takes a scroll for the reader’s within a second of their input, and never one before it', () => {
    expect(isReaderScroll(5_000, 4_000)).toBe(true);
    expect(isReaderScroll(5_001, 4_000)).toBe(false);
    expect(isReaderScroll(3_999, 4_000)).toBe(false);
    // No input yet.
    expect(isReaderScroll(5_000, -Infinity)).toBe(false);
  });
});

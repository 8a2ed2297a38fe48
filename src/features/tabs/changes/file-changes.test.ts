import { describe, expect, it } from 'vitest';
import { ApiError } from '../../../api/errors.ts';
import { changedByEvent, changesFailure, diffHeight, tipNumber } from './file-changes.ts';

const at = '2026-01-01T00:00:00Z';

describe('changes list', () => {
  it('refreshes on edits and runs, with the edited path', () => {
    expect(
      changedByEvent({ id: 1, source: 'agent', timestamp: at, observation: 'edit', extras: { path: 'a.ts' } }),
    ).toEqual({ changed: true, path: 'a.ts' });
    expect(changedByEvent({ id: 2, source: 'agent', timestamp: at, observation: 'run', content: '' })).toEqual({
      changed: true,
      path: null,
    });
    expect(changedByEvent({ id: 3, source: 'agent', timestamp: at, action: 'message', args: { path: 'x' } })).toEqual({
      changed: false,
      path: null,
    });
  });
  it('tells a missing repository from other failures', () => {
    expect(changesFailure(new ApiError(400, { detail: 'Not a git repository' }))).toEqual({ kind: 'notGitRepository' });
    expect(changesFailure(new ApiError(503, { detail: 'Runtime not ready' }))).toEqual({
      kind: 'raw',
      text: 'Runtime not ready',
    });
  });
  it('picks one of ten tips', () => {
    expect(tipNumber(0)).toBe(1);
    expect(tipNumber(0.999)).toBe(10);
  });
  it('sizes the diff: 400 px until measured, then content plus 20', () => {
    expect(diffHeight(null)).toBe(400);
    expect(diffHeight(180.4)).toBe(201);
  });
});

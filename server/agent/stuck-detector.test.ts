import { describe, expect, it } from 'vitest';
import { stuckReason, type StepSignature } from './stuck-detector.ts';

const step = (action: string, observation: string, error = false): StepSignature => ({ action, observation, error });

describe('stuckReason', () => {
  it('stops on the same action with the same result four times in a row', () => {
    const same = step('ls', 'a.txt');
    expect(stuckReason([same, same, same])).toBeNull();
    expect(stuckReason([same, same, same, same])).toMatch(/same action with the same result 4 times/);
  });

  it('does not count an action whose result changes', () => {
    expect(
      stuckReason([step('cat log', '1'), step('cat log', '2'), step('cat log', '3'), step('cat log', '4')]),
    ).toBeNull();
  });

  it('does not count repetitions interrupted by another step', () => {
    const same = step('ls', 'a.txt');
    expect(stuckReason([same, same, step('pwd', '/'), same, same])).toBeNull();
  });

  it('stops on the same error three times in a row, whatever the action', () => {
    const steps = [step('a', 'No such file', true), step('b', 'No such file', true), step('c', 'No such file', true)];
    expect(stuckReason(steps)).toMatch(/same error came back 3 times/);
    expect(stuckReason(steps.slice(1))).toBeNull();
  });

  it('does not count different errors', () => {
    expect(stuckReason([step('a', 'x', true), step('a', 'y', true), step('a', 'z', true)])).toBeNull();
  });
});

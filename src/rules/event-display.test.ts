import { describe, expect, it } from 'vitest';
import {
  commandTitle,
  isPushableBranch,
  isShownInChat,
  mergeSecurityLog,
  observationResult,
  shownExitCode,
  relativeTime,
  showsUpdatedTime,
  suggestionBranch,
  truncateRunOutput,
  truncateText,
  webAppUrl,
  type SecurityLogEntry,
} from './event-display.ts';
import type { Event } from '../../openapi/types.ts';

const event = (fields: Partial<Event>): Event => ({
  id: 1,
  source: 'agent',
  timestamp: '2026-01-01T00:00:00Z',
  ...fields,
});

describe('which events the chat shows', () => {
  it('hides hidden run actions and observations, shows the rest', () => {
    expect(isShownInChat(event({ action: 'run', args: { command: 'ls', hidden: true } }))).toBe(false);
    expect(isShownInChat(event({ observation: 'run', extras: { hidden: true } }))).toBe(false);
    expect(isShownInChat(event({ action: 'run', args: { command: 'ls', hidden: false } }))).toBe(true);
    expect(isShownInChat(event({ observation: 'run', content: 'ok' }))).toBe(true);
    expect(isShownInChat(event({ action: 'message', args: { content: 'hi' } }))).toBe(true);
  });
});

describe('observation result status', () => {
  const run = (exit_code: number) => event({ observation: 'run', extras: { metadata: { exit_code } } });
  it('run: -1 is a timeout, 0 success, anything else an error', () => {
    expect(observationResult(run(-1))).toBe('timeout');
    expect(observationResult(run(0))).toBe('success');
    expect(observationResult(run(1))).toBe('error');
    expect(observationResult(run(127))).toBe('error');
  });
  it.each(['read', 'edit', 'run_ipython', 'mcp'] as const)(
    '%s: error when empty or containing "error:", else success',
    (observation) => {
      expect(observationResult(event({ observation, content: '' }))).toBe('error');
      expect(observationResult(event({ observation, content: '   ' }))).toBe('error');
      expect(observationResult(event({ observation, content: 'Traceback\nValueError: bad' }))).toBe('error');
      expect(observationResult(event({ observation, content: 'ERROR: missing file' }))).toBe('error');
      expect(observationResult(event({ observation, content: 'file contents' }))).toBe('success');
    },
  );
  it('an MCP result its server flagged as an error, a failed step and a rejected action say so', () => {
    expect(observationResult(event({ observation: 'mcp', content: 'Access denied', extras: { error: true } }))).toBe(
      'error',
    );
    expect(observationResult(event({ observation: 'mcp', content: 'Access denied' }))).toBe('success');
    expect(observationResult(event({ observation: 'error', content: 'The browser action failed' }))).toBe('error');
    expect(observationResult(event({ observation: 'user_rejected', content: 'The user rejected this action.' }))).toBe(
      'rejected',
    );
  });
  it('shows a run’s exit code unless it succeeded or timed out', () => {
    expect(shownExitCode(run(2))).toBe(2);
    expect(shownExitCode(run(0))).toBeNull();
    expect(shownExitCode(run(-1))).toBeNull();
    expect(shownExitCode(event({ observation: 'read', content: 'x' }))).toBeNull();
    expect(shownExitCode(null)).toBeNull();
  });
  it('other observations are successes', () => {
    expect(observationResult(event({ observation: 'browse', content: '' }))).toBe('success');
    expect(observationResult(event({ observation: 'think', content: 'error: none' }))).toBe('success');
  });
});

describe('truncation', () => {
  it('keeps run output up to 5,000 characters whole', () => {
    const output = 'x'.repeat(5000);
    expect(truncateRunOutput(output)).toEqual({ text: output, head: output, tail: '', cut: 0 });
  });
  it('keeps the first and last 2,500 characters of longer output and counts the cut', () => {
    const output = `${'a'.repeat(2500)}${'m'.repeat(1001)}${'z'.repeat(2500)}`;
    const truncated = truncateRunOutput(output);
    expect(truncated.head).toBe('a'.repeat(2500));
    expect(truncated.tail).toBe('z'.repeat(2500));
    expect(truncated.cut).toBe(1001);
    expect(truncated.text).not.toContain('m');
  });
  it('cuts action and observation text at 1,000 characters', () => {
    expect(truncateText('y'.repeat(1000))).toEqual({ text: 'y'.repeat(1000), cut: 0 });
    expect(truncateText('y'.repeat(1200))).toEqual({ text: `${'y'.repeat(1000)}…`, cut: 200 });
  });
  it('cuts a command in a title at 80 characters and marks a multi-line one', () => {
    expect(commandTitle('npm test')).toBe('npm test');
    expect(commandTitle('c'.repeat(100))).toBe(`${'c'.repeat(80)}…`);
    expect(commandTitle('cd app\nnpm test')).toBe('cd app…');
  });
});

describe('relative time', () => {
  const now = new Date('2026-06-01T12:00:00Z');
  const ago = (ms: number) => new Date(now.getTime() - ms);
  it.each([
    [0, 'time.seconds', 0],
    [59_000, 'time.seconds', 59],
    [60_000, 'time.minutes', 1],
    [3_599_000, 'time.minutes', 59],
    [3_600_000, 'time.hours', 1],
    [86_400_000, 'time.days', 1],
    [29 * 86_400_000, 'time.days', 29],
    [30 * 86_400_000, 'time.months', 1],
    [364 * 86_400_000, 'time.months', 12],
    [365 * 86_400_000, 'time.years', 1],
  ])('%i ms ago is %s %i', (ms, key, count) => {
    expect(relativeTime(ago(ms), now)).toEqual({ key, count });
  });
  it('counts a time in the future as now', () => {
    expect(relativeTime(new Date(now.getTime() + 5000), now)).toEqual({ key: 'time.seconds', count: 0 });
  });
});

describe('conversation card', () => {
  it('shows the updated time only when it is more than 30 minutes after creation', () => {
    const created = '2026-01-01T10:00:00.000Z';
    expect(showsUpdatedTime(created, '2026-01-01T10:30:00.000Z')).toBe(false);
    expect(showsUpdatedTime(created, '2026-01-01T10:30:00.001Z')).toBe(true);
  });
});

describe('security analyzer log', () => {
  const entry = (fields: Partial<SecurityLogEntry>): SecurityLogEntry => ({
    id: 1,
    content: 'rm -rf build',
    security_risk: 2,
    confirmation_state: 'awaiting_confirmation',
    confirmed_changed: false,
    ...fields,
  });
  it('appends an entry that matches none', () => {
    expect(mergeSecurityLog([entry({})], { ...entry({ id: 2, content: 'ls' }) })).toHaveLength(2);
  });
  it('merges with the same id and marks a changed confirmation state', () => {
    const merged = mergeSecurityLog([entry({})], {
      id: 1,
      content: 'rm -rf build',
      security_risk: 2,
      confirmation_state: 'confirmed',
    });
    expect(merged).toEqual([entry({ confirmation_state: 'confirmed', confirmed_changed: true })]);
  });
  it('merges with an entry awaiting confirmation with the same content', () => {
    const merged = mergeSecurityLog([entry({ id: 7 })], {
      id: 9,
      content: 'rm -rf build',
      security_risk: 2,
      confirmation_state: 'rejected',
    });
    expect(merged).toEqual([entry({ id: 7, confirmation_state: 'rejected', confirmed_changed: true })]);
  });
  it('leaves an entry with the same state unchanged', () => {
    const log = [entry({})];
    expect(
      mergeSecurityLog(log, {
        id: 1,
        content: 'rm -rf build',
        security_risk: 2,
        confirmation_state: 'awaiting_confirmation',
      }),
    ).toEqual(log);
  });
  it('does not merge same content once it is no longer awaiting confirmation', () => {
    const log = [entry({ confirmation_state: 'confirmed' })];
    expect(
      mergeSecurityLog(log, {
        id: 3,
        content: 'rm -rf build',
        security_risk: 2,
        confirmation_state: 'awaiting_confirmation',
      }),
    ).toHaveLength(2);
  });
});

describe('pull-request suggestion branch', () => {
  it.each(['main', 'master', 'deploy', 'MAIN', 'refs/heads/main', '', null, undefined])(
    'never pushes to %s',
    (branch) => {
      expect(isPushableBranch(branch)).toBe(false);
      expect(suggestionBranch(branch)).toBeNull();
    },
  );
  it('keeps a feature branch', () => {
    expect(suggestionBranch('feature/login')).toBe('feature/login');
    expect(suggestionBranch('main-fix')).toBe('main-fix');
  });
});

describe('web app host', () => {
  it('rewrites a local host to the page host when the page is not on localhost', () => {
    expect(webAppUrl('http://localhost:51234/app', { hostname: 'atelier.example.com', protocol: 'https:' })).toBe(
      'http://atelier.example.com:51234/app',
    );
    expect(webAppUrl('http://127.0.0.1:8080/', { hostname: 'atelier.example.com', protocol: 'https:' })).toBe(
      'http://atelier.example.com:8080/',
    );
  });
  it('leaves the address alone on localhost or for a remote host', () => {
    expect(webAppUrl('http://localhost:51234/', { hostname: 'localhost', protocol: 'http:' })).toBe(
      'http://localhost:51234/',
    );
    expect(webAppUrl('https://app.example.org/', { hostname: 'atelier.example.com', protocol: 'https:' })).toBe(
      'https://app.example.org/',
    );
    expect(webAppUrl('not a url', { hostname: 'atelier.example.com', protocol: 'https:' })).toBe('not a url');
  });
});

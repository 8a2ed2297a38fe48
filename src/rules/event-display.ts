import type { components } from '../../openapi/schema.d.ts';
import type { Event } from '../../openapi/types.ts';

// How the chat shows events: which are shown, how results and long texts read, times and costs.
// Pure functions; texts are i18n keys of the `workspace` namespace with their values.

export type SecurityRisk = components['schemas']['SecurityRisk'];
export type ConfirmationState = components['schemas']['ConfirmationState'];

export const RUN_OUTPUT_LIMIT = 5_000;
export const RUN_OUTPUT_KEEP = 2_500;
export const TEXT_LIMIT = 1_000;
export const TITLE_COMMAND_LIMIT = 80;
export const UPDATED_TIME_MIN_MS = 1_800_000;

/** Hidden run events (the terminal's own commands and their output) are not shown in the chat. */
export function isShownInChat(event: Event): boolean {
  if (
    (event.action === 'run' && event.args?.hidden === true) ||
    (event.observation === 'run' && event.extras?.hidden === true)
  )
    return false;
  return true;
}

export type ResultStatus = 'success' | 'error' | 'timeout' | 'rejected';

/**
 * Observation result (spec): run by exit code (-1 timeout, 0 success, else error); read, edit,
 * run_ipython, mcp: error if empty or containing 'error:' (an MCP result the server flagged as
 * an error too); an error observation (a step that failed, such as a browse) is an error, and
 * the user's rejection is its own; others success.
 */
export function observationResult(event: Event): ResultStatus {
  switch (event.observation) {
    case 'run': {
      const code = event.extras?.metadata?.exit_code;
      if (code === -1) return 'timeout';
      return code === 0 ? 'success' : 'error';
    }
    case 'mcp':
      return event.extras?.error === true ? 'error' : textResult(event);
    case 'read':
    case 'edit':
    case 'run_ipython':
      return textResult(event);
    case 'error':
      return 'error';
    case 'user_rejected':
      return 'rejected';
    default:
      return 'success';
  }
}

function textResult(event: Event): ResultStatus {
  const content = event.content ?? '';
  return content.trim() === '' || content.toLowerCase().includes('error:') ? 'error' : 'success';
}

/** The exit code a run's result shows beside its title: any but success's 0 (and the timeout's -1, which says itself). */
export function shownExitCode(event: Event | null): number | null {
  const code = event?.observation === 'run' ? event.extras?.metadata?.exit_code : undefined;
  return typeof code === 'number' && code !== 0 && code !== -1 ? code : null;
}

export interface Truncated {
  text: string;
  /** Characters cut; 0 when the text was short enough. */
  cut: number;
}

/** Run output over 5,000 characters keeps its first and last 2,500; the view adds the note (key `events.outputCut`, {{count}}) between them. */
export function truncateRunOutput(output: string): Truncated & { head: string; tail: string } {
  if (output.length <= RUN_OUTPUT_LIMIT) return { text: output, head: output, tail: '', cut: 0 };
  const head = output.slice(0, RUN_OUTPUT_KEEP);
  const tail = output.slice(-RUN_OUTPUT_KEEP);
  const cut = output.length - 2 * RUN_OUTPUT_KEEP;
  return { text: `${head}\n…\n${tail}`, head, tail, cut };
}

/** Text cut at `limit` characters with an ellipsis. */
export function truncateText(text: string, limit: number = TEXT_LIMIT): Truncated {
  if (text.length <= limit) return { text, cut: 0 };
  return { text: `${text.slice(0, limit)}…`, cut: text.length - limit };
}

/** A command as a title: its first line, at most 80 characters. */
export function commandTitle(command: string): string {
  const firstLine = command.trim().split('\n')[0] ?? '';
  const multiline = command.trim().includes('\n');
  const text = truncateText(firstLine, TITLE_COMMAND_LIMIT).text;
  return multiline && !text.endsWith('…') ? `${text}…` : text;
}

export type RelativeTime = {
  key: 'time.seconds' | 'time.minutes' | 'time.hours' | 'time.days' | 'time.months' | 'time.years';
  count: number;
};

/** 'ago' times in the spec's units (s, m, h, d, mo, y): the largest unit with at least one whole step. A future time counts as 0 s. */
export function relativeTime(then: Date | string, now: Date): RelativeTime {
  const seconds = Math.max(0, Math.floor((now.getTime() - new Date(then).getTime()) / 1000));
  const minutes = Math.floor(seconds / 60);
  const hours = Math.floor(minutes / 60);
  const days = Math.floor(hours / 24);
  const months = Math.floor(days / 30);
  const years = Math.floor(days / 365);
  if (years >= 1) return { key: 'time.years', count: years };
  if (months >= 1) return { key: 'time.months', count: months };
  if (days >= 1) return { key: 'time.days', count: days };
  if (hours >= 1) return { key: 'time.hours', count: hours };
  if (minutes >= 1) return { key: 'time.minutes', count: minutes };
  return { key: 'time.seconds', count: seconds };
}

/** The conversation card shows the updated time only when it is more than 30 minutes after creation. */
export function showsUpdatedTime(createdAt: string, updatedAt: string): boolean {
  return new Date(updatedAt).getTime() - new Date(createdAt).getTime() > UPDATED_TIME_MIN_MS;
}

export interface SecurityLogEntry {
  id: number;
  content: string;
  security_risk: SecurityRisk;
  confirmation_state: ConfirmationState | null;
  confirmed_changed: boolean;
}

/**
 * Adds an entry to the security analyzer's log: it merges with an entry of the same id, or with
 * one awaiting confirmation with the same content; when the confirmation state differs, the
 * entry takes the new one and is marked changed. Otherwise it is appended.
 */
export function mergeSecurityLog(
  log: readonly SecurityLogEntry[],
  entry: Omit<SecurityLogEntry, 'confirmed_changed'>,
): SecurityLogEntry[] {
  const index = log.findIndex(
    (existing) =>
      existing.id === entry.id ||
      (existing.confirmation_state === 'awaiting_confirmation' && existing.content === entry.content),
  );
  if (index === -1) return [...log, { ...entry, confirmed_changed: false }];
  const existing = log[index] as SecurityLogEntry;
  if (existing.confirmation_state === entry.confirmation_state) return [...log];
  const merged = { ...existing, confirmation_state: entry.confirmation_state, confirmed_changed: true };
  return [...log.slice(0, index), merged, ...log.slice(index + 1)];
}

/** Default branches a pull-request suggestion never reuses. */
export const PROTECTED_BRANCHES = ['main', 'master', 'deploy'] as const;

/** Whether the suggestion may push to `branch`: never to main, master or deploy (or an empty name). */
export function isPushableBranch(branch: string | null | undefined): boolean {
  const name = (branch ?? '').trim().replace(/^refs\/heads\//, '');
  return name !== '' && !(PROTECTED_BRANCHES as readonly string[]).includes(name.toLowerCase());
}

/** The branch the suggestion names: the current one when pushable, else null (the prompt asks the agent to create a new branch). */
export function suggestionBranch(current: string | null | undefined): string | null {
  return isPushableBranch(current) ? (current ?? '').trim().replace(/^refs\/heads\//, '') : null;
}

const LOCAL_HOSTS = ['localhost', '127.0.0.1', '0.0.0.0', '[::1]', '::1'];
const isLocalHost = (hostname: string) => LOCAL_HOSTS.includes(hostname.toLowerCase());

/** A served app's address on a local host is rewritten to the page's host when the page itself is not on localhost. */
export function webAppUrl(hostUrl: string, page: { hostname: string; protocol: string }): string {
  let url: URL;
  try {
    url = new URL(hostUrl);
  } catch {
    return hostUrl;
  }
  if (!isLocalHost(url.hostname) || isLocalHost(page.hostname)) return hostUrl;
  url.hostname = page.hostname;
  return url.toString();
}

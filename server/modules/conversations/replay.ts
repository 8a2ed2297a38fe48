import { withSnapshot, type EditorCommand, type EditorInput, type RuntimeSession } from '../../runtime/types.ts';
import type { NewEvent } from './events.ts';
import type { Event } from '../../../openapi/types.ts';

const EDITOR_COMMANDS = new Set<string>(['view', 'create', 'str_replace', 'insert', 'undo_edit']);

/** Seconds a replayed command may run when the recording does not say (the runtime's own default). */
const DEFAULT_COMMAND_TIMEOUT = 120;

/**
 * Parses `replay_json`: a trajectory as downloaded (`{"trajectory": [...]}`) or its bare
 * array. Returns the events, or a sentence saying what is wrong.
 */
export function parseTrajectory(text: string, isEvent: (value: unknown) => boolean): Event[] | string {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return 'replay_json is not valid JSON';
  }
  const list = Array.isArray(parsed) ? parsed : (parsed as { trajectory?: unknown } | null)?.trajectory;
  if (!Array.isArray(list)) return 'replay_json must be a trajectory: {"trajectory": [events]} or an array of events';
  const bad = list.findIndex((event) => !isEvent(event));
  if (bad >= 0) return `replay_json event ${bad} is not an event of the contract's Event schema`;
  return list as Event[];
}

/**
 * Replays a recorded trajectory in a fresh workspace: `run`, `edit`, `write` and `read`
 * actions are executed again through the runtime and their recorded observations replaced by
 * what happened now; every other event is copied as it was (with `cause` pointing at the new
 * ids). Status updates of the old runtime are left out. Actions the user had rejected stay
 * unexecuted.
 */
export async function replayTrajectory(
  trajectory: Event[],
  session: RuntimeSession,
  emit: (event: NewEvent) => Promise<Event>,
  cancelled: () => boolean,
): Promise<void> {
  const newIds = new Map<number, number>();
  const reexecuted = new Set<number>();
  for (const recorded of trajectory) {
    if (cancelled()) return;
    if (recorded.status_update) continue;
    if (recorded.observation && recorded.cause != null && reexecuted.has(recorded.cause)) continue;
    const { id: oldId, timestamp: _timestamp, ...rest } = recorded;
    const cause = recorded.cause == null ? recorded.cause : (newIds.get(recorded.cause) ?? null);
    const stored = await emit(recorded.cause === undefined ? rest : { ...rest, cause });
    newIds.set(oldId, stored.id);
    if (!recorded.action || recorded.args?.confirmation_state === 'rejected') continue;
    const observation = await execute(stored, session);
    if (!observation) continue;
    reexecuted.add(oldId);
    // Like the agent's steps, a replayed one that may have changed files is a point a fork can start from.
    await emit(
      recorded.action === 'read'
        ? observation
        : { ...observation, extras: await withSnapshot(session, stored.id, observation.extras ?? {}) },
    );
  }
}

/** Runs one replayed action; null when its kind is copied rather than executed. */
async function execute(action: Event, session: RuntimeSession): Promise<NewEvent | null> {
  const args = action.args ?? {};
  const path = args.path ?? '';
  const base = { source: action.source === 'user' ? 'environment' : 'agent', cause: action.id } as const;
  try {
    switch (action.action) {
      case 'run': {
        const command = args.command ?? '';
        const result = await session.runCommand({
          command,
          isInput: args.is_input ?? false,
          timeoutSeconds: args.timeout ?? DEFAULT_COMMAND_TIMEOUT,
        });
        return {
          ...base,
          observation: 'run',
          content: result.output,
          message: `Command \`${command}\` executed with exit code ${result.exitCode}.`,
          extras: {
            command,
            hidden: args.hidden ?? false,
            metadata: { exit_code: result.exitCode, working_dir: result.cwd },
          },
        };
      }
      case 'edit': {
        const command =
          typeof args.command === 'string' && EDITOR_COMMANDS.has(args.command)
            ? (args.command as EditorCommand)
            : args.file_text != null
              ? 'create'
              : null;
        if (!command) return null;
        const input: EditorInput = { command, path };
        if (args.file_text != null) input.file_text = args.file_text;
        if (args.old_str != null) input.old_str = args.old_str;
        if (args.new_str != null) input.new_str = args.new_str;
        if (typeof args.insert_line === 'number') input.insert_line = args.insert_line;
        const result = await session.editor(input);
        return {
          ...base,
          observation: 'edit',
          content: result.output,
          message: `I edited the file ${path}.`,
          extras: { path, diff: result.diff },
        };
      }
      case 'write': {
        await session.writeFile(path, args.content ?? '');
        return {
          ...base,
          observation: 'edit',
          content: `File written: ${path}`,
          message: `I wrote to the file ${path}.`,
          extras: { path },
        };
      }
      case 'read': {
        const result = await session.editor({
          command: 'view',
          path,
          ...(Array.isArray(args.view_range) && { view_range: args.view_range as [number, number] }),
        });
        return {
          ...base,
          observation: 'read',
          content: result.output,
          message: `I read the file ${path}.`,
          extras: { path },
        };
      }
      default:
        return null;
    }
  } catch (error) {
    const message = (error as Error).message;
    return {
      ...base,
      observation: 'error',
      content: message,
      message: `Replaying ${action.action} failed: ${message}`,
      extras: {},
    };
  }
}

import { ApiError, errorText } from '../../../api/errors.ts';
import type { Event } from '../../../../openapi/types.ts';

// When the changes list refreshes, and how its failures read.

/** Events that change files or run commands: the list (and the diff of the path they name) is refreshed. */
export function changedByEvent(event: Event): { changed: boolean; path: string | null } {
  const kind = event.observation ?? null;
  const changed =
    kind === 'edit' || kind === 'run' || kind === 'run_ipython' || event.action === 'edit' || event.action === 'write';
  const path = event.extras?.path ?? event.args?.path ?? null;
  return { changed, path: changed ? path : null };
}

export const NOT_A_GIT_REPOSITORY = 'Not a git repository';

export type ChangesFailure = { kind: 'notGitRepository' } | { kind: 'raw'; text: string };

/** 400 'Not a git repository' gets the ask-the-agent hint; anything else shows its own text. */
export function changesFailure(error: unknown): ChangesFailure {
  const text = errorText(error);
  if (
    error instanceof ApiError &&
    error.status === 400 &&
    text.toLowerCase().includes(NOT_A_GIT_REPOSITORY.toLowerCase())
  )
    return { kind: 'notGitRepository' };
  return { kind: 'raw', text };
}

export const TIP_COUNT = 10;

/** A tip number 1–10 from a random number in [0, 1). */
export const tipNumber = (random: number) =>
  (Math.min(TIP_COUNT - 1, Math.floor(random * TIP_COUNT)) + 1) as 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | 10;

/** The diff viewer starts 400 px tall, then takes its content's height plus 20 px. */
export const DIFF_DEFAULT_HEIGHT_PX = 400;
export const diffHeight = (contentHeight: number | null) =>
  contentHeight === null ? DIFF_DEFAULT_HEIGHT_PX : Math.ceil(contentHeight) + 20;

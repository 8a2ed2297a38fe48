import { realpath } from 'node:fs/promises';
import path from 'node:path';

const CONVERSATION_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** Conversation ids become directory names: only letters, digits, '_' and '-' so no id can climb out of the root. */
export function assertConversationId(id: string): void {
  if (!CONVERSATION_ID.test(id))
    throw new Error(`Invalid conversation id: ${JSON.stringify(id)} (use letters, digits, '_' and '-')`);
}

function isInside(root: string, candidate: string): boolean {
  const rel = path.relative(root, candidate);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/** The real path of `target`, or of its nearest existing ancestor joined with the missing rest (for files about to be created). */
async function realpathOfExisting(target: string): Promise<string> {
  const missing: string[] = [];
  let current = target;
  for (;;) {
    try {
      return path.join(await realpath(current), ...missing.reverse());
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      const parent = path.dirname(current);
      if (parent === current) throw error;
      missing.push(path.basename(current));
      current = parent;
    }
  }
}

/**
 * Resolves a path given by the agent or the user (relative to the workspace, or absolute
 * under it) and refuses anything that lands outside, lexically or through a symlink.
 * `root` must already be a real path. Answers the real path, so the caller writes where
 * the check looked rather than following a link again.
 */
export async function resolveInside(root: string, requested: string): Promise<string> {
  const lexical = path.resolve(root, requested);
  if (!isInside(root, lexical)) throw new Error(`Path is outside the workspace: ${requested}`);
  const real = await realpathOfExisting(lexical);
  if (!isInside(root, real)) throw new Error(`Path is outside the workspace: ${requested}`);
  return real;
}

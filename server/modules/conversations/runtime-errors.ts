import { InvalidInput, NotFound } from '../../shared/domain-errors.ts';

/**
 * Turns what the runtime throws for a caller's mistake into the contract's answer (400 for
 * a path outside the workspace or of the wrong kind, 404 for a missing file); anything else
 * is the server's problem and stays a 500.
 */
export function runtimeError(error: unknown, path?: string): unknown {
  const err = error as NodeJS.ErrnoException;
  const message = err?.message ?? '';
  if (message.startsWith('Path is outside the workspace')) return new InvalidInput('The path is outside the workspace');
  if (err?.code === 'ENOENT') return new NotFound(path ? `No such file: ${path}` : 'No such file');
  if (err?.code === 'EISDIR') return new InvalidInput(path ? `${path} is a directory` : 'That is a directory');
  if (err?.code === 'ENOTDIR') return new InvalidInput(path ? `${path} is not a directory` : 'Not a directory');
  if (err?.code === 'ENAMETOOLONG')
    return new InvalidInput('The path is too long: at most 255 bytes a name and 4,096 bytes in all');
  if (message.startsWith('Not a file')) return new InvalidInput(message);
  if (/not a git repository/i.test(message)) return new InvalidInput('Not a git repository');
  return error;
}

/** Runs a runtime call, answering the caller's mistakes with their HTTP status. */
export async function viaRuntime<T>(call: () => Promise<T>, path?: string): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw runtimeError(error, path);
  }
}

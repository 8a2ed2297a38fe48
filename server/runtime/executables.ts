import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/** The executable's path on PATH, or null. */
export function findOnPath(name: string): string | null {
  const found = (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter(Boolean)
    .map((dir) => path.join(dir, name))
    .find((candidate) => {
      try {
        accessSync(candidate, constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
  return found ?? null;
}

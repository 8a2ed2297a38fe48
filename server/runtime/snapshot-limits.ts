/** Where snapshots keep their trees: refs to trees are outside every branch, tag and `git log --all`. */
export const SNAPSHOT_REFS = 'refs/atelier/snapshots/';

/** Files larger than this are left out of snapshots (git would store and hash them at every change): 50 MB. */
export const SNAPSHOT_FILE_LIMIT_BYTES = 50 * 1024 * 1024;

/** What a workspace snapshot needs of git's index file: the paths it tracks. */
export type TrackedPaths = { paths: Set<string>; directories: Set<string> } | { unsupported: string };

const decoder = new TextDecoder('utf-8', { fatal: true });
/** Entry flags (gitformat-index(5)). */
const EXTENDED = 0x4000;
const NAME_MASK = 0x0fff;
/** Extended flags: the entry's file is not in the work tree by design (sparse checkout). */
const SKIP_WORKTREE = 0x4000;
const ENTRY_FIXED_BYTES = 62;

/**
 * The paths of an index file (versions 2 to 4), and every directory above one. A split index
 * or sparse entries hold paths outside this file, so they are reported as unsupported.
 */
export function trackedPaths(index: Uint8Array): TrackedPaths {
  const view = new DataView(index.buffer, index.byteOffset, index.byteLength);
  if (index.byteLength < 12 || view.getUint32(0) !== 0x44495243) return { unsupported: 'the index is not readable' };
  const version = view.getUint32(4);
  if (version < 2 || version > 4) return { unsupported: `index version ${version}` };
  const count = view.getUint32(8);
  const paths = new Set<string>();
  const directories = new Set<string>();
  let offset = 12;
  let previous: Uint8Array = new Uint8Array(0);
  try {
    for (let entry = 0; entry < count; entry += 1) {
      const start = offset;
      const flags = view.getUint16(start + 60);
      offset = start + ENTRY_FIXED_BYTES;
      if (flags & EXTENDED) {
        if (view.getUint16(offset) & SKIP_WORKTREE) return { unsupported: 'sparse entries in the index' };
        offset += 2;
      }
      let name: Uint8Array;
      if (version === 4) {
        // Prefix compression: a varint of bytes to drop from the previous name, then the rest.
        let byte = index[offset] as number;
        let strip = byte & 0x7f;
        offset += 1;
        while (byte & 0x80) {
          byte = index[offset] as number;
          strip = ((strip + 1) << 7) | (byte & 0x7f);
          offset += 1;
        }
        const end = index.indexOf(0, offset);
        if (end < 0) return { unsupported: 'the index is not readable' };
        const kept = previous.subarray(0, previous.length - strip);
        name = new Uint8Array(kept.length + end - offset);
        name.set(kept);
        name.set(index.subarray(offset, end), kept.length);
        offset = end + 1;
      } else {
        const length = flags & NAME_MASK;
        const end = length < NAME_MASK ? offset + length : index.indexOf(0, offset);
        name = index.subarray(offset, end);
        // Entries are padded with 1 to 8 NULs to a multiple of 8 bytes.
        offset = start + ((end - start + 8) & ~7);
      }
      previous = name;
      const path = decoder.decode(name);
      paths.add(path);
      for (let slash = path.lastIndexOf('/'); slash > 0; slash = path.lastIndexOf('/', slash - 1)) {
        const directory = path.slice(0, slash);
        if (directories.has(directory)) break;
        directories.add(directory);
      }
    }
  } catch {
    return { unsupported: 'the index is not readable' };
  }
  // A split index keeps most entries in a shared file ("link" extension).
  if (hasExtension(index, offset, 'link')) return { unsupported: 'a split index' };
  if (hasExtension(index, offset, 'sdir')) return { unsupported: 'a sparse index' };
  return { paths, directories };
}

function hasExtension(index: Uint8Array, offset: number, signature: string): boolean {
  const view = new DataView(index.buffer, index.byteOffset, index.byteLength);
  // The last 20 bytes are the checksum.
  while (offset + 8 <= index.byteLength - 20) {
    if (String.fromCharCode(...index.subarray(offset, offset + 4)) === signature) return true;
    offset += 8 + view.getUint32(offset + 4);
  }
  return false;
}

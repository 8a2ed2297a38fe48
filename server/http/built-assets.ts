import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const gzip = promisify(zlib.gzip);

/** The built files kept in memory, by extension, with the type they are served as. */
const CONTENT_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
};

/** A built script or stylesheet as it is sent: as built, and gzipped when that is smaller. */
export interface BuiltAsset {
  contentType: string;
  etag: string;
  raw: Buffer;
  gzipped: Buffer | null;
}

/** Whether an Accept-Encoding header takes gzip (named or as `*`, with a quality above 0). */
export function acceptsGzip(header: string | undefined): boolean {
  return (header ?? '').split(',').some((part) => {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    if (coding !== 'gzip' && coding !== '*') return false;
    const quality = params.map((param) => /^\s*q=([\d.]+)\s*$/.exec(param)?.[1]).find((q) => q !== undefined);
    return quality === undefined || Number(quality) > 0;
  });
}

/** One path segment such as the build names its files: nothing outside the directory, nothing hidden. */
export const isBuiltName = (name: string) => /^[\w-][\w.-]*$/.test(name);

/**
 * The build's hashed scripts and stylesheets (dist/assets), read and gzipped once on first
 * request and then sent from memory: their names carry their content's hash, so they never
 * change under a name. The workspace loads about thirty of them; from disk each cost about 1 ms
 * of the server's CPU, and they went out uncompressed (three times the bytes). Returns null for a
 * name that is not such a file (other files stay with the static file server).
 */
export function builtAssets(directory: string) {
  const loaded = new Map<string, Promise<BuiltAsset | null>>();

  async function load(name: string): Promise<BuiltAsset | null> {
    const contentType = CONTENT_TYPES[path.extname(name)];
    if (!contentType) return null;
    const raw = await fs.readFile(path.join(directory, name)).catch(() => null);
    if (!raw) return null;
    const compressed = await gzip(raw);
    return {
      contentType,
      etag: `"${createHash('sha1').update(raw).digest('base64url')}"`,
      raw,
      gzipped: compressed.length < raw.length ? compressed : null,
    };
  }

  return {
    /** `name` is one checked by `isBuiltName` (the route refuses others before asking). */
    get(name: string): Promise<BuiltAsset | null> {
      let asset = loaded.get(name);
      if (!asset) {
        asset = load(name);
        loaded.set(name, asset);
        // A file missing now may be built later: only found files are kept.
        void asset.then((found) => found ?? loaded.delete(name));
      }
      return asset;
    },
  };
}

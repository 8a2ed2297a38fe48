import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseYaml } from './yaml.ts';

/** The contract, openapi/atelier.yaml. */
export const contractPath = path.join(import.meta.dirname, '..', '..', 'openapi', 'atelier.yaml');

/** Parsed contracts kept as JSON by their text's hash: parsing the YAML takes 0.3 s of every start, reading JSON 5 ms. */
const cacheDir = path.join(import.meta.dirname, '..', '..', 'node_modules', '.cache', 'atelier-contract');

let parsed: unknown = null;

function parse(): unknown {
  const text = fs.readFileSync(contractPath, 'utf8');
  const cached = path.join(cacheDir, `${createHash('sha256').update(text).digest('hex')}.json`);
  try {
    return JSON.parse(fs.readFileSync(cached, 'utf8'));
  } catch {
    const document = parseYaml(text);
    try {
      fs.mkdirSync(cacheDir, { recursive: true });
      // Written whole, then renamed: a process reading it never sees half a file.
      const partial = `${cached}.${process.pid}`;
      fs.writeFileSync(partial, JSON.stringify(document));
      fs.renameSync(partial, cached);
    } catch {
      // A read-only checkout parses the YAML each time.
    }
    return document;
  }
}

/**
 * The contract as parsed once for the process (the HTTP edge's routes and the validators of
 * socket frames share it). Read it, never change it.
 */
export function contractDocument(): unknown {
  parsed ??= parse();
  return parsed;
}

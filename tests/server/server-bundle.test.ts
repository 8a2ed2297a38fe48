import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isStale } from '../../scripts/server-bundle.mjs';

describe('the server bundle that npm start runs', () => {
  let base: string;
  let bundle: string;
  let inputs: string;
  const at = (file: string, seconds: number) => fs.utimesSync(path.join(base, file), seconds, seconds);

  beforeEach(() => {
    base = fs.mkdtempSync(path.join(os.tmpdir(), 'atelier-bundle-'));
    bundle = path.join(base, 'main.mjs');
    inputs = path.join(base, 'inputs.json');
    for (const file of ['a.ts', 'b.ts', 'main.mjs']) fs.writeFileSync(path.join(base, file), '');
    fs.writeFileSync(inputs, JSON.stringify(['a.ts', 'b.ts']));
    at('a.ts', 1_000);
    at('b.ts', 1_000);
    at('main.mjs', 2_000);
  });
  afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

  it('is kept while every file it came from is older than it', () => {
    expect(isStale(bundle, inputs, base)).toBe(false);
  });

  it('is built again when a file it came from changed after it, or is gone', () => {
    at('b.ts', 3_000);
    expect(isStale(bundle, inputs, base)).toBe(true);
    at('b.ts', 1_000);
    fs.rmSync(path.join(base, 'a.ts'));
    expect(isStale(bundle, inputs, base)).toBe(true);
  });

  it('is built when it is missing or its list of inputs cannot be read', () => {
    fs.writeFileSync(inputs, '{ not json');
    expect(isStale(bundle, inputs, base)).toBe(true);
    fs.rmSync(inputs);
    expect(isStale(bundle, inputs, base)).toBe(true);
    fs.writeFileSync(inputs, JSON.stringify(['a.ts']));
    fs.rmSync(bundle);
    expect(isStale(bundle, inputs, base)).toBe(true);
  });
});

import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';

const modulesDir = path.resolve(import.meta.dirname, '../modules');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

// Modules state refusals as domain errors; which HTTP status each gets is decided at the edge only.
it('no file under server/modules builds an error from an HTTP status', () => {
  const offenders = sourceFiles(modulesDir).filter((file) => {
    const text = fs.readFileSync(file, 'utf8');
    return /\bHttpError\b|shared\/http-error|new \w+\(\s*[45]\d\d\b/.test(text);
  });
  expect(offenders.map((file) => path.relative(modulesDir, file))).toEqual([]);
});

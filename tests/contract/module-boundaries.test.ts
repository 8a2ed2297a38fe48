import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { listOperations } from '../../server/http/openapi.ts';

/**
 * Static checks of the server's modules (docs/adr/0001-server-modules-tag-is-folder.md): an
 * operation's handler lives in server/modules/<its tag>.
 */

const modulesDir = path.resolve(import.meta.dirname, '../../server/modules');

/** The operations the HTTP edge answers itself: the server's own document, metrics and CSP reports. */
const EDGE_OPERATIONS = new Set(['getApiDocs', 'getOpenApiDocument', 'getMetrics', 'reportCspViolation']);

/** Every module's source file (tests left out), parsed, with the module (top folder) it belongs to. */
function moduleSources(dir = modulesDir): { module: string; file: string; source: ts.SourceFile }[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return moduleSources(full);
    if (!entry.name.endsWith('.ts') || entry.name.includes('.test.')) return [];
    const file = path.relative(modulesDir, full).split(path.sep).join('/');
    // server/modules/index.ts wires the modules together; it is none of them.
    if (!file.includes('/')) return [];
    const source = ts.createSourceFile(full, fs.readFileSync(full, 'utf8'), ts.ScriptTarget.Latest, true);
    return [{ module: file.split('/')[0]!, file, source }];
  });
}
const sources = moduleSources();

/** operationId → the module files whose `Handlers` objects answer it. */
function handlerFiles(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  const keysOf = (node: ts.Node | undefined, file: string) => {
    if (!node || !ts.isObjectLiteralExpression(node)) return;
    for (const property of node.properties)
      if (property.name && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name)))
        found.set(property.name.text, [...(found.get(property.name.text) ?? []), file]);
  };
  const returnsOf = (body: ts.Node, file: string) => {
    if (ts.isReturnStatement(body)) keysOf(body.expression, file);
    else if (!ts.isFunctionLike(body)) body.forEachChild((child) => returnsOf(child, file));
  };
  for (const { file, source } of sources) {
    const visit = (node: ts.Node) => {
      const typedHandlers = (type: ts.TypeNode | undefined) => type?.getText(source) === 'Handlers';
      if ((ts.isFunctionDeclaration(node) || ts.isArrowFunction(node)) && typedHandlers(node.type) && node.body) {
        if (ts.isBlock(node.body)) returnsOf(node.body, file);
        else keysOf(node.body, file);
      }
      if (ts.isVariableDeclaration(node) && typedHandlers(node.type)) keysOf(node.initializer, file);
      node.forEachChild(visit);
    };
    visit(source);
  }
  return found;
}

describe('server modules: tag = folder', () => {
  const operations = listOperations();
  const handlers = handlerFiles();

  it('finds each operation handled in exactly one place', () => {
    for (const op of operations) {
      const files = handlers.get(op.operationId) ?? [];
      expect(files.length, `${op.operationId} handled in ${files.join(', ')}`).toBe(
        EDGE_OPERATIONS.has(op.operationId) ? 0 : 1,
      );
    }
  });

  it('handles every operation in the folder its tag names', () => {
    const misplaced = operations.flatMap((op) =>
      (handlers.get(op.operationId) ?? [])
        .filter((file) => !file.startsWith(`${op.tag}/`))
        .map((file) => `${op.operationId} (tag ${op.tag}) in server/modules/${file}`),
    );
    expect(misplaced).toEqual([]);
  });

  it('gives every tag a module folder', () => {
    const folders = new Set(sources.map((s) => s.module));
    expect([...new Set(operations.map((op) => op.tag))].filter((tag) => !folders.has(tag))).toEqual([]);
  });

  it('leaves the edge only its own operations, all of them system ones', () => {
    expect(operations.filter((op) => EDGE_OPERATIONS.has(op.operationId)).map((op) => op.tag)).toEqual(
      [...EDGE_OPERATIONS].map(() => 'system'),
    );
  });
});

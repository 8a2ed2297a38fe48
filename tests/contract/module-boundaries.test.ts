import fs from 'node:fs';
import path from 'node:path';
import { is } from 'drizzle-orm';
import { PgTable } from 'drizzle-orm/pg-core';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import * as schema from '../../server/db/schema.ts';
import { listOperations } from '../../server/http/openapi.ts';

/**
 * Static checks of the server's modules (docs/adr/0021-server-modules-tag-is-folder.md): an
 * operation's handler lives in server/modules/<its tag>, and a module reads and writes only
 * the tables it owns — others' data comes through the owner's exported functions — and every
 * module that answers operations has one shape: its index.ts exports create<Name>Module(deps).
 */

const modulesDir = path.resolve(import.meta.dirname, '../../server/modules');

/** The operations the HTTP edge answers itself: the server's own document, metrics and CSP reports. */
const EDGE_OPERATIONS = new Set(['getApiDocs', 'getOpenApiDocument', 'getMetrics', 'reportCspViolation']);

/** Every table and the one module that owns it. */
const TABLE_OWNERS: Record<string, string> = {
  users: 'auth',
  sessions: 'auth',
  emailVerifications: 'auth',
  usageAgreementLinks: 'auth',
  userIdentities: 'identity',
  apiKeys: 'api-keys',
  onboarding: 'onboarding',
  cardClaims: 'onboarding',
  outbox: 'mail',
  creditLedger: 'credits',
  creditAccounts: 'credits',
  creditLots: 'credits',
  paymentAccounts: 'billing',
  purchaseRefunds: 'billing',
  affiliates: 'affiliate',
  affiliateSessions: 'affiliate',
  affiliateLinks: 'affiliate',
  affiliateClicks: 'affiliate',
  affiliateCommissions: 'affiliate',
  conversations: 'conversations',
  events: 'conversations',
  conversationInbox: 'conversations',
  userSettings: 'settings',
  providerTokens: 'settings',
  customSecrets: 'secrets',
  savedLayouts: 'user',
  eventFeedback: 'feedback',
  trajectoryFeedback: 'feedback',
  deployments: 'deployments',
  devopsMessages: 'devops',
  onboardingChats: 'chat-onboarding',
  onboardingChatEvents: 'chat-onboarding',
  onboardingChatFiles: 'chat-onboarding',
  rateLimits: 'rate-limits',
};

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

/** For each module, the schema tables its files import, with the files. */
function tableImports(): { module: string; file: string; table: string }[] {
  return sources.flatMap(({ module, file, source }) =>
    source.statements.flatMap((statement) => {
      if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) return [];
      if (!statement.moduleSpecifier.text.endsWith('/db/schema.ts')) return [];
      const bindings = statement.importClause?.namedBindings;
      if (!bindings || !ts.isNamedImports(bindings)) return [];
      return bindings.elements
        .map((element) => (element.propertyName ?? element.name).text)
        .filter((name) => name in TABLE_OWNERS)
        .map((table) => ({ module, file, table }));
    }),
  );
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

describe('server modules: tables are private', () => {
  it('names an owner for every table of the schema', () => {
    const tables = Object.entries(schema)
      .filter(([, value]) => is(value, PgTable))
      .map(([name]) => name);
    expect(tables.filter((name) => !(name in TABLE_OWNERS))).toEqual([]);
    expect(Object.keys(TABLE_OWNERS).filter((name) => !tables.includes(name))).toEqual([]);
    const folders = new Set(sources.map((s) => s.module));
    expect(Object.values(TABLE_OWNERS).filter((owner) => !folders.has(owner))).toEqual([]);
  });

  it("touches no other module's table", () => {
    const foreign = tableImports()
      .filter(({ module, table }) => TABLE_OWNERS[table] !== module)
      .map(({ file, table }) => `server/modules/${file} uses ${table} of ${TABLE_OWNERS[table]}`);
    expect(foreign).toEqual([]);
  });
});

/** `chat-onboarding` → `createChatOnboardingModule`. */
const factoryName = (folder: string) =>
  `create${folder.replace(/(^|-)([a-z])/g, (_, _dash: string, letter: string) => letter.toUpperCase())}Module`;

/** The names a module's index.ts exports as functions (declared there or re-exported). */
function indexFunctionExports(module: string): string[] {
  const index = sources.find((s) => s.file === `${module}/index.ts`);
  if (!index) return [];
  return index.source.statements.flatMap((statement) =>
    ts.isFunctionDeclaration(statement) &&
    statement.name &&
    statement.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
      ? [statement.name.text]
      : [],
  );
}

describe('server modules: one shape', () => {
  const answering = [...new Set([...handlerFiles().values()].flat().map((file) => file.split('/')[0]!))].sort();

  it('finds the modules that answer operations', () => {
    expect(answering.length).toBeGreaterThan(10);
  });

  it('has every module that answers operations export create<Name>Module from its index.ts', () => {
    const missing = answering
      .filter((module) => !indexFunctionExports(module).includes(factoryName(module)))
      .map((module) => `server/modules/${module}/index.ts lacks ${factoryName(module)}`);
    expect(missing).toEqual([]);
  });

  it('answers operations only from handlers built by the module, never from its index.ts', () => {
    const inIndex = [...handlerFiles().entries()]
      .filter(([, files]) => files.some((file) => file.endsWith('/index.ts')))
      .map(([operationId, files]) => `${operationId} in ${files.join(', ')}`);
    expect(inIndex).toEqual([]);
  });
});

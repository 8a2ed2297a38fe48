import fs from 'node:fs';
import { parseYaml } from '../shared/yaml.ts';
import { contractDocument, contractPath } from '../shared/contract-document.ts';
import { JSON_BODY_TYPES } from '../shared/operations.ts';

export const openapiPath = contractPath;

type JsonSchema = Record<string, unknown>;
type Document = {
  paths: Record<string, Record<string, RawOperation>>;
  components?: Record<string, Record<string, unknown>>;
  security?: unknown[];
};
type RawOperation = {
  operationId: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  parameters?: { name: string; in: string; required?: boolean; schema?: JsonSchema }[];
  requestBody?: { required?: boolean; content: Record<string, { schema?: JsonSchema }> };
  responses: Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
  'x-body-limit'?: number;
  'x-raw-body'?: boolean;
};

export interface Operation {
  operationId: string;
  tag: string;
  method: string;
  /** OpenAPI path, e.g. /api/conversations/{conversation_id} */
  path: string;
  /** Fastify path, e.g. /api/conversations/:conversation_id */
  url: string;
  /** Names of the accepted security schemes; empty means public. */
  security: string[];
  /** Request schemas for Fastify's validator (references already resolved). */
  request: {
    body?: JsonSchema;
    querystring?: JsonSchema;
    params?: JsonSchema;
    /** Header parameters, names in lower case. */
    headers?: JsonSchema;
    bodyRequired: boolean;
    bodyType?: string;
  };
  /** Largest accepted JSON body in bytes, when the operation needs more than the server's default. */
  bodyLimit?: number;
  /** The handler also gets the body's bytes as sent (`x-raw-body`: a signature covers them). */
  rawBody: boolean;
  /** Response schemas by status code and media type (references resolved). */
  responses: Record<string, Record<string, JsonSchema | undefined>>;
}

const methods = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** The contract (parsed once for the process), or another document from `file`. */
export function loadDocument(file = openapiPath): Document {
  if (file === openapiPath) return contractDocument() as Document;
  return parseYaml(fs.readFileSync(file, 'utf8')) as Document;
}

/**
 * Inlines every internal `$ref` (the contract has no recursive schemas). A reference met again is
 * the same object as the first time (`resolved`): the contract's schemas are read, never changed.
 */
export function dereference<T>(value: T, doc: Document, seen: string[] = [], resolved = new Map<string, unknown>()): T {
  if (Array.isArray(value)) return value.map((v) => dereference(v, doc, seen, resolved)) as T;
  if (!value || typeof value !== 'object') return value;
  const ref = (value as { $ref?: unknown }).$ref;
  if (typeof ref === 'string') {
    if (resolved.has(ref)) return resolved.get(ref) as T;
    if (seen.includes(ref)) throw new Error(`Recursive $ref ${ref} cannot be inlined`);
    const target = ref
      .replace(/^#\//, '')
      .split('/')
      .reduce<unknown>((node, key) => (node as Record<string, unknown> | undefined)?.[key], doc);
    if (target === undefined) throw new Error(`Unresolved $ref ${ref}`);
    const inlined = dereference(target as T, doc, [...seen, ref], resolved);
    resolved.set(ref, inlined);
    return inlined;
  }
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, dereference(v, doc, seen, resolved)])) as T;
}

/** Every operation in the contract, with its request and response schemas resolved. */
export function listOperations(doc: Document = loadDocument()): Operation[] {
  const operations: Operation[] = [];
  const resolved = new Map<string, unknown>();
  for (const [p, item] of Object.entries(doc.paths)) {
    for (const method of methods) {
      const raw = item[method];
      if (!raw) continue;
      const op = dereference(raw, doc, [], resolved);
      const params = [
        ...((item as { parameters?: RawOperation['parameters'] }).parameters ?? []),
        ...(op.parameters ?? []),
      ];
      const group = (where: string) => {
        const list = params.filter((x) => x.in === where);
        if (!list.length) return undefined;
        // Node gives header names in lower case.
        const nameOf = (name: string) => (where === 'header' ? name.toLowerCase() : name);
        return {
          type: 'object',
          properties: Object.fromEntries(list.map((x) => [nameOf(x.name), x.schema ?? {}])),
          required: list.filter((x) => x.required || where === 'path').map((x) => nameOf(x.name)),
        };
      };
      const [bodyType, bodyContent] = Object.entries(op.requestBody?.content ?? {})[0] ?? [];
      const security = (op.security ?? doc.security ?? []) as Record<string, string[]>[];
      operations.push({
        operationId: op.operationId,
        tag: op.tags?.[0] ?? 'default',
        method: method.toUpperCase(),
        path: p,
        url: p.replace(/\{([^}]+)\}/g, ':$1'),
        security: security.flatMap((s) => Object.keys(s)),
        bodyLimit: op['x-body-limit'],
        rawBody: op['x-raw-body'] === true,
        request: {
          body: JSON_BODY_TYPES.some((type) => type === bodyType) ? bodyContent?.schema : undefined,
          querystring: group('query'),
          params: group('path'),
          headers: group('header'),
          bodyRequired: Boolean(op.requestBody?.required),
          bodyType,
        },
        responses: Object.fromEntries(
          Object.entries(op.responses).map(([status, r]) => [
            status,
            Object.fromEntries(Object.entries(r.content ?? {}).map(([type, c]) => [type, c.schema])),
          ]),
        ),
      });
    }
  }
  return operations;
}

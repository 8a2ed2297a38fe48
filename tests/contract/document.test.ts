import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

/**
 * Static checks of openapi/atelier.yaml: the contract lists every call of both spec
 * documents (§7), operations are well formed, errors use the shared shapes and every
 * reference resolves.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

interface Operation {
  method: string;
  path: string;
  op: JsonObject;
  params: JsonObject[];
}

const source = readFileSync(new URL('../../openapi/atelier.yaml', import.meta.url), 'utf8');
const doc = parse(source, { uniqueKeys: true }) as JsonObject;

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function obj(value: Json | undefined, where: string): JsonObject {
  if (!isObject(value)) throw new Error(`${where} is not an object`);
  return value;
}

function resolve(ref: string): Json | undefined {
  if (!ref.startsWith('#/')) return undefined;
  let node: Json | undefined = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    node = isObject(node) ? node[key] : undefined;
  }
  return node;
}

/** Follows a `$ref` (possibly several) to its target. */
function deref(value: Json | undefined): Json | undefined {
  let node = value;
  for (let i = 0; i < 10 && isObject(node) && typeof node.$ref === 'string'; i++) node = resolve(node.$ref);
  return node;
}

const paths = obj(doc.paths, 'paths');
const operations: Operation[] = Object.entries(paths).flatMap(([path, item]) => {
  const pathItem = obj(item, path);
  const shared = Array.isArray(pathItem.parameters) ? pathItem.parameters : [];
  return METHODS.filter((m) => pathItem[m] !== undefined).map((method) => {
    const op = obj(pathItem[method], `${method} ${path}`);
    const own = Array.isArray(op.parameters) ? op.parameters : [];
    const params = [...shared, ...own].map((p, i) => obj(deref(p), `${method} ${path} parameter ${i}`));
    return { method: method.toUpperCase(), path, op, params };
  });
});

/** `/api/conversations/{id}/x` and `/api/conversations/{conversation_id}/x` are the same path. */
const normalise = (path: string) => path.replace(/\{[^}]+\}/g, '{}');
const present = new Set(operations.map((o) => `${o.method} ${normalise(o.path)}`));

/** §7 of spec/public-site-and-affiliate.md. */
const AFFILIATE_SPEC_CALLS = [
  'POST /api/affiliate/click',
  'POST /api/affiliate/login',
  'GET /api/affiliate/me',
  'POST /api/affiliate/logout',
  'POST /api/affiliate/register',
  'GET /api/affiliate/links',
  'POST /api/affiliate/links',
  'PUT /api/affiliate/links/{id}',
  'DELETE /api/affiliate/links/{id}',
  'GET /api/affiliate/links/{id}/users',
  'GET /api/affiliate/links/{id}/affiliators',
  'GET /api/affiliate/earnings',
];

/** §7 of spec/signed-in-application.md. */
const APPLICATION_SPEC_CALLS = [
  // Auth
  'POST /api/auth/login',
  'GET /api/auth/me/extended',
  'POST /api/auth/register',
  'POST /api/auth/claim',
  'POST /api/auth/logout',
  'GET /api/auth/credits',
  'POST /api/auth/purchase-credits',
  'GET /api/auth/transactions/conversation-groups',
  'GET /api/auth/transactions/other',
  'GET /api/auth/transactions/category/{conversation_id}',
  // Onboarding
  'GET /api/{provider}/onboarding/form-data',
  'GET /api/{provider}/onboarding/countries',
  'GET /api/{provider}/onboarding/detect-country',
  'POST /api/{provider}/onboarding/save-user-country',
  'POST /api/{provider}/onboarding/save-contact-information',
  'POST /api/{provider}/onboarding/save-payment-information',
  'POST /api/{provider}/onboarding/start-free',
  // Billing
  'POST /api/billing/create-checkout-session',
  'POST /api/billing/create-customer-setup-session',
  'GET /api/billing/credits',
  // Platform and options
  'GET /api/options/models',
  'GET /api/options/agents',
  'GET /api/options/security-analyzers',
  'GET /api/options/config',
  'POST /api/authenticate',
  'GET /api/settings',
  'POST /api/settings',
  'GET /api/user/info',
  'GET /api/user/search/repositories',
  'GET /api/user/repositories',
  'GET /api/user/repository/branches',
  'GET /api/user/repository/{owner}/{repo}/microagents',
  'GET /api/user/repository/{owner}/{repo}/microagents/content',
  'GET /api/user/installations',
  'POST /api/{identity}/callback',
  'POST /api/logout',
  'POST /api/unset-provider-tokens',
  // Conversations
  'GET /api/conversations',
  'POST /api/conversations',
  'GET /api/conversations/{id}',
  'PATCH /api/conversations/{id}',
  'DELETE /api/conversations/{id}',
  'POST /api/conversations/{id}/start',
  'POST /api/conversations/{id}/stop',
  'GET /api/conversations/{id}/zip-directory',
  'GET /api/conversations/{id}/web-hosts',
  'GET /api/conversations/{id}/vscode-url',
  'GET /api/conversations/{id}/config',
  'GET /api/conversations/{id}/trajectory',
  'GET /api/conversations/{id}/git/changes',
  'GET /api/conversations/{id}/git/diff',
  'GET /api/conversations/{id}/microagents',
  'GET /api/conversations/{id}/remember-prompt',
  'GET /api/conversations/{id}/list-files',
  'GET /api/conversations/{id}/select-file',
  'POST /api/conversations/{id}/upload-files',
  // Feedback
  'POST /api/conversations/{id}/submit-feedback',
  'POST /feedback/conversation',
  'GET /feedback/conversation/{id}/{eventId}',
  'GET /feedback/conversation/{id}/batch',
  // Deployments
  'GET /api/deployments/{conversationId}',
  'DELETE /api/deployments/{conversationId}/{dropletName}',
  // DevOps agent
  'GET /api/devops-agent/session/{sessionId}/history',
  'POST /api/devops-agent/execute',
];

/** Calls the project's issues and ARCHITECTURE.md add beyond §7. */
const PROJECT_CALLS = [
  'GET /health',
  'GET /ready',
  'GET /api/conversations/{conversation_id}/events',
  'POST /api/conversations/{conversation_id}/save-file',
  'GET /api/user/layouts',
  'PUT /api/user/layouts/{name}',
  'DELETE /api/user/layouts/{name}',
  'GET /api/secrets',
  'POST /api/secrets',
  'PUT /api/secrets/{name}',
  'DELETE /api/secrets/{name}',
];

describe('openapi/atelier.yaml', () => {
  it('is OpenAPI 3.1', () => {
    expect(doc.openapi).toMatch(/^3\.1\./);
  });

  it.each([
    ['public-site-and-affiliate §7', AFFILIATE_SPEC_CALLS],
    ['signed-in-application §7', APPLICATION_SPEC_CALLS],
    ['project issues', PROJECT_CALLS],
  ])('lists every call of %s', (_name, calls) => {
    const missing = calls.filter((call) => {
      const [method = '', path = ''] = call.split(' ');
      return !present.has(`${method} ${normalise(path)}`);
    });
    expect(missing).toEqual([]);
  });

  it('gives every operation a unique camelCase operationId and a summary', () => {
    const ids = operations.map((o) => o.op.operationId);
    for (const { method, path, op } of operations) {
      expect(op.operationId, `${method} ${path}`).toMatch(/^[a-z][a-zA-Z0-9]*$/);
      expect(typeof op.summary === 'string' && op.summary.length > 0, `${method} ${path} summary`).toBe(true);
    }
    const duplicates = ids.filter((id, i) => ids.indexOf(id) !== i);
    expect(duplicates).toEqual([]);
  });

  it('gives every operation exactly one tag declared at the top level', () => {
    const declared = new Set((Array.isArray(doc.tags) ? doc.tags : []).map((t) => obj(t, 'tag').name));
    for (const { method, path, op } of operations) {
      expect(Array.isArray(op.tags) ? op.tags.length : 0, `${method} ${path} tags`).toBe(1);
      const tag = Array.isArray(op.tags) ? op.tags[0] : undefined;
      expect(declared.has(tag ?? null), `${method} ${path} tag ${String(tag)}`).toBe(true);
    }
  });

  it('uses only declared security schemes, and answers 401 on authenticated operations', () => {
    const schemes = obj(obj(doc.components, 'components').securitySchemes, 'securitySchemes');
    for (const { method, path, op } of operations) {
      const security = op.security ?? doc.security;
      expect(Array.isArray(security), `${method} ${path} security`).toBe(true);
      const names = (security as Json[]).flatMap((s) => Object.keys(obj(s, 'security requirement')));
      for (const name of names) expect(schemes[name], `${method} ${path} scheme ${name}`).toBeDefined();
      if (names.length > 0) {
        expect(obj(op.responses, 'responses')['401'], `${method} ${path} 401`).toBeDefined();
      }
    }
  });

  it('declares every path parameter, with a type', () => {
    for (const { method, path, params } of operations) {
      const inPath = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const declared = params.filter((p) => p.in === 'path').map((p) => p.name);
      expect(declared.sort(), `${method} ${path}`).toEqual(inPath.sort());
      for (const p of params) {
        expect(p.schema, `${method} ${path} parameter ${String(p.name)}`).toBeDefined();
        if (p.in === 'path') expect(p.required, `${method} ${path} ${String(p.name)} required`).toBe(true);
      }
    }
  });

  it('takes request bodies from components/schemas, closed when JSON', () => {
    for (const { method, path, op } of operations) {
      if (op.requestBody === undefined) continue;
      const content = obj(obj(deref(op.requestBody), 'requestBody').content, `${method} ${path} body content`);
      for (const [type, media] of Object.entries(content)) {
        const schema = obj(obj(media, type).schema, `${method} ${path} ${type} schema`);
        expect(schema.$ref, `${method} ${path} ${type}`).toMatch(/^#\/components\/schemas\//);
        const target = obj(deref(schema), String(schema.$ref));
        // A signed webhook's body is the provider's: its signature vouches for it, not a closed schema.
        if (op['x-raw-body'] === true) continue;
        expect(target.additionalProperties, `${method} ${path} ${type} additionalProperties`).toBe(false);
      }
    }
  });

  it('describes a body for every success response', () => {
    for (const { method, path, op } of operations) {
      const responses = obj(op.responses, `${method} ${path} responses`);
      const success = Object.keys(responses).filter((code) => /^2/.test(code));
      expect(success.length, `${method} ${path} success`).toBeGreaterThan(0);
      for (const code of success) {
        const content = obj(obj(deref(responses[code]), code).content, `${method} ${path} ${code} content`);
        for (const [type, media] of Object.entries(content)) {
          expect(obj(media, type).schema, `${method} ${path} ${code} ${type}`).toBeDefined();
        }
      }
    }
  });

  it('answers every error with Error or ValidationError through the shared responses', () => {
    const shared = obj(obj(doc.components, 'components').responses, 'components.responses');
    for (const { method, path, op } of operations) {
      const responses = obj(op.responses, `${method} ${path} responses`);
      for (const [code, response] of Object.entries(responses)) {
        if (/^2/.test(code)) continue;
        const ref = obj(response, `${method} ${path} ${code}`).$ref;
        expect(ref, `${method} ${path} ${code}`).toMatch(/^#\/components\/responses\/[A-Za-z]+$/);
        const name = String(ref).split('/').pop() ?? '';
        const target = obj(shared[name], `response ${name}`);
        const schema = obj(
          obj(obj(target.content, `${name} content`)['application/json'], `${name} json`).schema,
          `${name} schema`,
        );
        expect(
          ['#/components/schemas/Error', '#/components/schemas/ValidationError'],
          `${method} ${path} ${code}`,
        ).toContain(schema.$ref);
        if (code === '422') expect(schema.$ref, `${method} ${path} 422`).toBe('#/components/schemas/ValidationError');
      }
    }
  });

  it('keeps error bodies to {"detail": ...}', () => {
    const schemas = obj(obj(doc.components, 'components').schemas, 'components.schemas');
    for (const name of ['Error', 'ValidationError']) {
      const schema = obj(schemas[name], name);
      expect(schema.required).toEqual(['detail']);
      expect(Object.keys(obj(schema.properties, `${name}.properties`))).toEqual(['detail']);
    }
  });

  it('resolves every $ref', () => {
    const unresolved: string[] = [];
    const walk = (node: Json | undefined, where: string) => {
      if (Array.isArray(node)) node.forEach((child, i) => walk(child, `${where}/${i}`));
      else if (isObject(node)) {
        for (const [key, child] of Object.entries(node)) {
          if (key === '$ref') {
            if (typeof child !== 'string' || resolve(child) === undefined)
              unresolved.push(`${where}: ${String(child)}`);
          } else walk(child, `${where}/${key}`);
        }
      }
    };
    walk(doc, '#');
    expect(unresolved).toEqual([]);
  });

  it('uses 3.1 nullability (no `nullable`)', () => {
    expect(source).not.toMatch(/^\s*nullable:/m);
  });

  it('describes the real-time frames', () => {
    const schemas = obj(obj(doc.components, 'components').schemas, 'components.schemas');
    for (const name of ['Event', 'AgentState', 'ClientAction', 'ClientFrame', 'ServerFrame']) {
      expect(schemas[name], name).toBeDefined();
    }
    const socket = obj(doc['x-websocket'], 'x-websocket');
    expect(socket.path).toBe('/socket');
    expect(Object.keys(obj(socket.query, 'x-websocket.query')).sort()).toEqual(
      ['auth_token', 'chat_only_mode', 'conversation_id', 'latest_event_id', 'providers_set', 'session_api_key'].sort(),
    );
    const actions = obj(schemas.ActionKind, 'ActionKind').enum;
    const observations = obj(schemas.ObservationKind, 'ObservationKind').enum;
    expect(Array.isArray(actions) ? actions.length : 0).toBe(16);
    expect(Array.isArray(observations) ? observations.length : 0).toBe(15);
  });
});

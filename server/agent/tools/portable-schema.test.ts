import { describe, expect, it } from 'vitest';
import { BUILT_IN_TOOLS, ToolRegistry } from './index.ts';
import { portableSchema } from './portable-schema.ts';

/** The keywords OpenAI's function schemas, Anthropic's input_schema and Gemini's OpenAPI subset all list. */
const PORTABLE = new Set([
  'type',
  'description',
  'enum',
  'properties',
  'required',
  'items',
  'anyOf',
  'minimum',
  'maximum',
  'minItems',
  'maxItems',
]);
/** Every keyword a schema uses, at any depth (property names are not keywords). */
function keywords(schema: unknown, found = new Set<string>()): Set<string> {
  if (typeof schema !== 'object' || schema === null) return found;
  for (const [key, value] of Object.entries(schema)) {
    found.add(key);
    if (key === 'properties') for (const property of Object.values(value as object)) keywords(property, found);
    else if (key === 'items') keywords(value, found);
    else if (key === 'anyOf') for (const alternative of value as unknown[]) keywords(alternative, found);
  }
  return found;
}

describe('tool schemas as sent to the model', () => {
  it('use only the keywords every provider documents, for every built-in tool', () => {
    const sent = new ToolRegistry(BUILT_IN_TOOLS).forModel();
    for (const tool of sent) {
      const used = [...keywords(tool.inputSchema)];
      expect(
        used.filter((keyword) => !PORTABLE.has(keyword)),
        tool.name,
      ).toEqual([]);
      expect(tool.inputSchema).toMatchObject({ type: 'object' });
    }
    const bash = sent.find((tool) => tool.name === 'execute_bash')?.inputSchema as {
      properties: Record<string, { description?: string }>;
    };
    // A dropped constraint is said in words; zod's ±2^53 integer bounds are not.
    expect(bash.properties.timeout?.description).toMatch(/\(greater than 0\)$/);
    const editor = sent.find((tool) => tool.name === 'str_replace_editor')?.inputSchema as {
      properties: Record<string, unknown>;
    };
    expect(editor.properties.view_range).toEqual({
      type: 'array',
      items: { type: 'integer' },
      description: expect.any(String),
    });
    expect(editor.properties.insert_line).toMatchObject({ type: 'integer', minimum: 0 });
    expect(editor.properties.insert_line).not.toHaveProperty('maximum');
  });

  it('keeps validating on arrival what the sent schema only says in words', () => {
    const bash = BUILT_IN_TOOLS.find((tool) => tool.name === 'execute_bash');
    expect(() => bash?.parse({ command: 'ls', timeout: -1 })).toThrow(/timeout/);
  });

  it('rewrites what an MCP server may send: $ref, type lists, const, oneOf, tuples, extra keywords', () => {
    const schema = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      additionalProperties: false,
      $defs: { Point: { type: 'object', properties: { x: { type: 'number' } }, required: ['x', 'gone'] } },
      properties: {
        at: { $ref: '#/$defs/Point', description: 'Where.' },
        label: { type: ['string', 'null'], minLength: 3, default: 'a' },
        mode: { const: 'fast' },
        shape: {
          oneOf: [
            { type: 'string', format: 'uri' },
            { type: 'integer', exclusiveMinimum: 0 },
          ],
        },
        pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false },
      },
      required: ['at', 'missing'],
    };
    expect(portableSchema(schema)).toEqual({
      type: 'object',
      properties: {
        at: {
          type: 'object',
          description: 'Where.',
          properties: { x: { type: 'number' } },
          required: ['x'],
        },
        label: { anyOf: [{ type: 'string' }, { type: 'null' }], description: '(at least 3 characters; default "a")' },
        mode: { enum: ['fast'] },
        shape: {
          anyOf: [
            { type: 'string', description: '(format uri)' },
            { type: 'integer', description: '(greater than 0)' },
          ],
        },
        pair: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'number' }] } },
      },
      required: ['at'],
    });
  });

  it('ends a recursive $ref, and gives a tool without arguments its empty properties', () => {
    const tree = {
      type: 'object',
      definitions: { Node: { type: 'object', properties: { child: { $ref: '#/definitions/Node' } } } },
      properties: { root: { $ref: '#/definitions/Node' } },
    };
    let depth = 0;
    let node = (portableSchema(tree).properties as Record<string, { properties?: Record<string, unknown> }>).root;
    while (node?.properties) {
      node = node.properties.child as typeof node;
      depth++;
    }
    expect(depth).toBe(8);
    expect(portableSchema({ type: 'object' })).toEqual({ type: 'object', properties: {} });
  });
});

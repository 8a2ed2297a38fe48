/**
 * A tool's argument schema in the part of JSON Schema every provider documents for tool
 * parameters: OpenAI's function schemas (the strict-mode list), Anthropic's `input_schema`, and
 * Gemini's OpenAPI subset, which OpenAI-compatible gateways pass on and which refuses what it
 * does not know ("Unknown name exclusiveMinimum"). What is outside it is rewritten (a type list
 * or `oneOf` as `anyOf`, `const` as a one-value `enum`, local `$ref`s inlined) or, for
 * constraints, said in the description: arguments are validated on arrival anyway (built-in
 * tools by their zod schema, MCP tools by their server).
 */
type Schema = Record<string, unknown>;

/** Keywords sent as they are. */
const KEPT = ['type', 'description', 'enum', 'minimum', 'maximum', 'minItems', 'maxItems'] as const;
/** Constraints said in words instead. */
const WORDED: Record<string, (value: unknown) => string | null> = {
  exclusiveMinimum: (value) => `greater than ${String(value)}`,
  exclusiveMaximum: (value) => `less than ${String(value)}`,
  minLength: (value) => (value === 1 ? 'not empty' : `at least ${String(value)} characters`),
  maxLength: (value) => `at most ${String(value)} characters`,
  pattern: (value) => `matching the pattern ${String(value)}`,
  format: (value) => `format ${String(value)}`,
  multipleOf: (value) => `a multiple of ${String(value)}`,
  default: (value) => `default ${JSON.stringify(value)}`,
};
/** A `$ref` this deep inside itself is left open: providers need a finite schema. */
const REF_DEPTH = 8;

const isSchema = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
/** zod's integer bounds say nothing: every JSON number a model writes is inside them. */
const isSafeIntegerBound = (value: unknown) => typeof value === 'number' && Math.abs(value) >= Number.MAX_SAFE_INTEGER;

export function portableSchema(root: Schema): Schema {
  const definitions = {
    ...(isSchema(root.$defs) ? root.$defs : {}),
    ...(isSchema(root.definitions) ? root.definitions : {}),
  };
  const resolve = (ref: string): Schema | undefined => {
    const name = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(ref)?.[1];
    const found = name === undefined ? undefined : definitions[decodeURIComponent(name)];
    return isSchema(found) ? found : undefined;
  };

  const convert = (schema: unknown, depth: number): Schema => {
    if (!isSchema(schema)) return {};
    if (typeof schema.$ref === 'string') {
      const target = resolve(schema.$ref);
      const { $ref: _ref, ...rest } = schema;
      return target && depth < REF_DEPTH ? convert({ ...target, ...rest }, depth + 1) : portableDescription(rest);
    }
    const out: Schema = {};
    for (const key of KEPT) {
      const value = schema[key];
      if (value === undefined || ((key === 'minimum' || key === 'maximum') && isSafeIntegerBound(value))) continue;
      out[key] = value;
    }
    if (schema.const !== undefined) out.enum = [schema.const];
    if (Array.isArray(schema.type)) {
      delete out.type;
      out.anyOf = schema.type.map((type) => ({ type }));
    }
    const alternatives = schema.anyOf ?? schema.oneOf;
    if (Array.isArray(alternatives)) out.anyOf = alternatives.map((alternative) => convert(alternative, depth));
    if (Array.isArray(schema.allOf)) Object.assign(out, ...schema.allOf.map((part) => convert(part, depth)));
    const { properties } = schema;
    if (isSchema(properties)) {
      out.properties = Object.fromEntries(
        Object.entries(properties).map(([name, property]) => [name, convert(property, depth)]),
      );
      if (Array.isArray(schema.required))
        out.required = schema.required.filter((name) => typeof name === 'string' && name in properties);
    }
    if (schema.items !== undefined && schema.items !== false)
      out.items = Array.isArray(schema.items)
        ? { anyOf: schema.items.map((item) => convert(item, depth)) }
        : convert(schema.items, depth);
    if (Array.isArray(schema.prefixItems) && out.items === undefined)
      out.items = { anyOf: schema.prefixItems.map((item) => convert(item, depth)) };
    const worded = Object.entries(WORDED).flatMap(([key, word]) => {
      const value = schema[key];
      const said = value === undefined ? null : word(value);
      return said ? [said] : [];
    });
    if (worded.length > 0) out.description = [schema.description, `(${worded.join('; ')})`].filter(Boolean).join(' ');
    return out;
  };

  const converted = convert(root, 0);
  // Some gateways refuse an object schema without `properties` (a tool that takes no arguments).
  return { ...converted, type: 'object', properties: converted.properties ?? {} };
}

/** A schema reduced to what can be said of it (an open `$ref`): its description, if any. */
function portableDescription(schema: Schema): Schema {
  return typeof schema.description === 'string' ? { description: schema.description } : {};
}

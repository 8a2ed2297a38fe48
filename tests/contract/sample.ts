/** A minimal value that satisfies a (dereferenced) JSON schema: for calling every contracted operation. */
export function sample(schema: Record<string, unknown> | undefined): unknown {
  if (!schema) return undefined;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if ('default' in schema) return schema.default;
  for (const key of ['oneOf', 'anyOf'] as const) {
    const options = schema[key];
    if (Array.isArray(options)) return sample(options[0] as Record<string, unknown>);
  }
  if (Array.isArray(schema.allOf))
    return Object.assign({}, ...schema.allOf.map((s) => sample(s as Record<string, unknown>)));
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
      const required = (schema.required ?? []) as string[];
      const optional = Object.keys(properties).filter((name) => !required.includes(name));
      const names = [
        ...required,
        ...optional.slice(0, Math.max(0, Number(schema.minProperties ?? 0) - required.length)),
      ];
      return Object.fromEntries(names.map((name) => [name, sample(properties[name])]));
    }
    case 'array':
      return Array.from({ length: Number(schema.minItems ?? 0) }, () =>
        sample(schema.items as Record<string, unknown>),
      );
    case 'integer':
    case 'number':
      return (
        Number(schema.minimum ?? schema.exclusiveMinimum ?? 0) + (schema.exclusiveMinimum !== undefined ? 1 : 0) || 1
      );
    case 'boolean':
      return true;
    case 'string':
      return sampleString(schema);
    default:
      return null;
  }
}

function sampleString(schema: Record<string, unknown>): string {
  switch (schema.format) {
    case 'email':
      return 'someone@acme.example';
    case 'date-time':
      return '2026-01-01T00:00:00Z';
    case 'uri':
    case 'url':
      return 'https://acme.example/';
    case 'uuid':
      return '00000000-0000-4000-8000-000000000000';
  }
  if (typeof schema.pattern === 'string') {
    // The contract's patterns are simple character classes with bounds: try the usual shapes.
    const pattern = new RegExp(schema.pattern);
    const found = ['abc', 'ABC', 'a1', 'A_1', '4242424242424242', '12/30', '123', 'x'].find((c) => pattern.test(c));
    if (found) return found;
  }
  return 'x'.repeat(Math.max(1, Number(schema.minLength ?? 1)));
}

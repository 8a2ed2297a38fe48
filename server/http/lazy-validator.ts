import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

/**
 * Fastify's request validation, with each schema compiled when its route is first called rather
 * than when the server starts: the contract has some 200 operations, whose compiling took about
 * a second of every start. Same options as Fastify's own compiler, except that unknown body
 * fields are refused rather than silently dropped, so typos surface, and that a body is taken
 * as it came: JSON has types, so `"5"` for a number or `1` for a boolean is refused, not
 * coerced. Query strings, path parameters and headers are text, parsed by their schema's type.
 */
export function lazyValidatorCompiler(): FastifySchemaCompiler<unknown> {
  const options = { useDefaults: true, removeAdditional: false, addUsedSchema: false, allErrors: true, strict: false };
  const forText = new Ajv({ ...options, coerceTypes: 'array' });
  const forBodies = new Ajv({ ...options, coerceTypes: false });
  addFormats.default(forText);
  addFormats.default(forBodies);
  return ({ schema, httpPart }) => {
    const ajv = httpPart === 'body' ? forBodies : forText;
    let compiled: ValidateFunction | null = null;
    const validate = (data: unknown) => {
      compiled ??= ajv.compile(schema as object);
      const valid = compiled(data);
      validate.errors = compiled.errors;
      return valid;
    };
    validate.errors = null as ValidateFunction['errors'];
    return validate;
  };
}

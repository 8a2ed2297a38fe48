import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { contractDocument } from './contract-document.ts';

let ajv: Ajv2020 | undefined;
const compiled = new Map<string, ValidateFunction>();

export interface ContractValidator<T> {
  is(value: unknown): value is T;
  /** Why the last value checked was refused, in a line a person can read. */
  explain(): string;
}

/**
 * A validator for one schema of `components.schemas` in openapi/atelier.yaml, for data that
 * does not arrive through an HTTP operation (socket frames, replayed trajectories). Ajv
 * resolves the document's own `$ref`s, so the schemas are used exactly as written.
 */
export function contractValidator<T>(schemaName: string): ContractValidator<T> {
  // Compiled on the first check, not when the server starts.
  let check: ValidateFunction | undefined;
  const compile = (): ValidateFunction => {
    let validate = compiled.get(schemaName);
    if (!validate) {
      if (!ajv) {
        ajv = new Ajv2020({ strict: false, allErrors: true });
        addFormats.default(ajv);
        ajv.addSchema({ $id: 'atelier', components: (contractDocument() as { components: unknown }).components });
      }
      validate = ajv.compile({ $ref: `atelier#/components/schemas/${schemaName}` });
      compiled.set(schemaName, validate);
    }
    return validate;
  };
  return {
    is: (value): value is T => (check ??= compile())(value) as boolean,
    explain() {
      // oneOf reports every branch; the branch-selecting `const` and the summary add nothing.
      const errors = check?.errors ?? [];
      const useful = errors.filter((e) => e.keyword !== 'oneOf' && e.keyword !== 'const');
      const shown = (useful.length ? useful : errors).slice(0, 3);
      return shown.map((e) => `${e.instancePath || 'value'} ${e.message ?? 'is invalid'}`).join('; ') || 'invalid';
    },
  };
}

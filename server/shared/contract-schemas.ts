import fs from 'node:fs';
import path from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import YAML from 'yaml';

const documentPath = path.join(import.meta.dirname, '..', '..', 'openapi', 'atelier.yaml');

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
  let validate = compiled.get(schemaName);
  if (!validate) {
    if (!ajv) {
      ajv = new Ajv2020({ strict: false, allErrors: true });
      addFormats.default(ajv);
      const document = YAML.parse(fs.readFileSync(documentPath, 'utf8')) as { components: unknown };
      ajv.addSchema({ $id: 'atelier', components: document.components });
    }
    validate = ajv.compile({ $ref: `atelier#/components/schemas/${schemaName}` });
    compiled.set(schemaName, validate);
  }
  const check = validate;
  return {
    is: (value): value is T => check(value) as boolean,
    explain() {
      // oneOf reports every branch; the branch-selecting `const` and the summary add nothing.
      const useful = (check.errors ?? []).filter((e) => e.keyword !== 'oneOf' && e.keyword !== 'const');
      const shown = (useful.length ? useful : (check.errors ?? [])).slice(0, 3);
      return shown.map((e) => `${e.instancePath || 'value'} ${e.message ?? 'is invalid'}`).join('; ') || 'invalid';
    },
  };
}

import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Operation } from './openapi.ts';

const notImplemented: Record<string, Record<string, unknown>> = {
  'application/json': { type: 'object', required: ['detail'], properties: { detail: { const: 'Not implemented' } } },
};

export interface ContractViolation {
  operationId: string;
  status: number;
  problem: string;
}

/** Checks answers against the contract; used by the tests (VALIDATE_RESPONSES=1) to prove handlers keep it. */
export class ResponseValidator {
  readonly violations: ContractViolation[] = [];
  readonly seen = new Map<string, Set<number>>();
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction>();

  constructor() {
    addFormats.default(this.ajv);
  }

  check(op: Operation, status: number, contentType: string | undefined, payload: unknown) {
    this.seen.set(op.operationId, (this.seen.get(op.operationId) ?? new Set()).add(status));
    // 501 marks an operation a later issue implements; it is not repeated on every operation.
    const documented =
      op.responses[String(status)] ?? op.responses.default ?? (status === 501 ? notImplemented : undefined);
    if (!documented) return this.fail(op, status, `status ${status} is not documented`);
    const type = (contentType ?? '').split(';')[0]?.trim() ?? '';
    const schema = documented[type];
    if (!(type in documented)) {
      if (Object.keys(documented).length === 0 && (payload === undefined || payload === '')) return;
      return this.fail(op, status, `content type "${type}" is not documented`);
    }
    if (!schema || type !== 'application/json') return;
    const key = `${op.operationId} ${status}`;
    let validate = this.compiled.get(key);
    if (!validate) this.compiled.set(key, (validate = this.ajv.compile(schema)));
    let body: unknown;
    try {
      body = typeof payload === 'string' ? JSON.parse(payload) : payload;
    } catch {
      return this.fail(op, status, 'body is not JSON');
    }
    if (!validate(body)) this.fail(op, status, this.ajv.errorsText(validate.errors));
  }

  private fail(op: Operation, status: number, problem: string) {
    this.violations.push({ operationId: op.operationId, status, problem });
  }
}

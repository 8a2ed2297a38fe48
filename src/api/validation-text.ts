import i18next from 'i18next';

// A 422's detail items as sentences in the user's language (common:validation), naming the field
// and the rule from the item's `loc`, `type` and `ctx`; an item of a rule not worded here keeps
// the server's `msg`.

interface DetailItem {
  loc?: unknown;
  msg?: unknown;
  type?: unknown;
  ctx?: unknown;
}

/** The rules worded, and the figure of `ctx` each needs. */
const WORDED: Record<string, 'limit' | 'format' | null> = {
  minLength: 'limit',
  maxLength: 'limit',
  minimum: 'limit',
  maximum: 'limit',
  minItems: 'limit',
  maxItems: 'limit',
  format: 'format',
  pattern: null,
  required: null,
  type: null,
  enum: null,
  const: null,
  additionalProperties: null,
};

/** The field's name as a person reads it: a known field's, else its key with spaces. */
function fieldName(key: string): string {
  const known = `common:validation.fields.${key}`;
  return i18next.exists(known) ? i18next.t(known as 'common:validation.fields.email') : key.replaceAll('_', ' ');
}

export function validationSentence(item: DetailItem): string | null {
  if (!i18next.isInitialized || typeof item.type !== 'string' || !Array.isArray(item.loc)) return null;
  const needs = WORDED[item.type];
  const ctx = (typeof item.ctx === 'object' && item.ctx !== null ? item.ctx : {}) as Record<string, unknown>;
  if (needs === undefined || (needs !== null && ctx[needs] === undefined)) return null;
  const key = String(ctx.missingProperty ?? ctx.additionalProperty ?? item.loc.at(-1) ?? '');
  const field = fieldName(key);
  const sentence = i18next.t(`common:validation.${item.type}` as 'common:validation.minLength', {
    field,
    // A field's name starts the sentence.
    Field: field.charAt(0).toUpperCase() + field.slice(1),
    limit: ctx.limit,
    count: typeof ctx.limit === 'number' ? ctx.limit : undefined,
    format: ctx.format,
    type: ctx.type,
  });
  return typeof sentence === 'string' && sentence !== '' ? sentence : null;
}

import type { FastifyServerOptions } from 'fastify';
import pino from 'pino';
import { passesLuhn } from '../shared/luhn.ts';

// No log line may hold a credential: session tokens travel in the socket's query
// (`auth_token`), conversation keys in `session_api_key` and headers, provider keys in settings.

/** Query parameter and field names whose values are credentials. */
const SECRET_NAME = /token|key|secret|password|passwd|session|auth|signature|credential|code/i;
const REDACTED = '[redacted]';

/** The URL with the values of its credential-like query parameters replaced. */
export function redactUrl(url: string): string {
  const question = url.indexOf('?');
  if (question === -1) return url;
  const query = url
    .slice(question + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals === -1 ? pair : pair.slice(0, equals);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // A malformed escape: judge the name as written.
      }
      return equals !== -1 && SECRET_NAME.test(decoded) ? `${name}=${REDACTED}` : pair;
    });
  return `${url.slice(0, question)}?${query.join('&')}`;
}

/**
 * A card number as it may be written: 15 to 19 digits (13- and 14-digit cards are rare, and a
 * millisecond timestamp has 13), alone or in groups, starting as card networks' numbers do.
 */
const CARD_NUMBER = /(?<![\d.])[2-6](?:[ -]?\d){14,18}(?![\d.])/g;

/** A last guard over every written line, for URLs, headers and card numbers that reach a message some other way. */
export function redactLine(line: string): string {
  return line
    .replace(CARD_NUMBER, (found) => (passesLuhn(found.replace(/[ -]/g, '')) ? '[redacted card number]' : found))
    .replace(
      /([?&](?:[\w.-]*(?:token|key|secret|password|session|auth|signature|credential|code)[\w.-]*))=([^&\s"\\]+)/gi,
      `$1=${REDACTED}`,
    )
    .replace(/\b(Bearer|Basic)\s+[\w.~+/=-]+/g, `$1 ${REDACTED}`);
}

/** Field names whose values are credentials, at any depth of a logged object. */
const SECRET_FIELDS = new Set([
  'authorization',
  'cookie',
  'x-session-api-key',
  'apiKey',
  'api_key',
  'llm_api_key',
  'password',
  'token',
  'access_token',
  'auth_token',
  'session_api_key',
  // Card fields (onboarding's payment step, the claim page, the providers' card objects): passed to
  // the payment provider, never stored, and never logged either.
  'card_number',
  'security_code',
  'expiry_date',
  'card_holder_name',
  'cardholder_name',
  'cvc',
  'number',
  'expMonth',
  'expYear',
  'holderName',
]);
/** Deep enough for any object the server logs; deeper values are written as they are (the line guard still applies). */
const REDACT_DEPTH = 8;

/**
 * `value` with every credential field's value replaced, copying only the objects on the way to
 * one: a log line without credentials allocates nothing here. Plain objects and arrays are walked;
 * other objects (a request, an error before its serializer) are left to their serializers.
 */
export function redactFields<T>(value: T, depth = 0): T {
  if (depth >= REDACT_DEPTH || typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    let copy: unknown[] | null = null;
    value.forEach((item, i) => {
      const redacted = redactFields(item, depth + 1);
      if (redacted !== item) (copy ??= [...value])[i] = redacted;
    });
    return (copy ?? value) as T;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) return value;
  const record = value as Record<string, unknown>;
  let copy: Record<string, unknown> | null = null;
  // for…in, not Object.entries: walking a clean object makes no array.
  for (const key in record) {
    if (!Object.hasOwn(record, key)) continue;
    const field = record[key];
    const redacted = SECRET_FIELDS.has(key) && field !== undefined ? REDACTED : redactFields(field, depth + 1);
    if (redacted !== field) (copy ??= { ...record })[key] = redacted;
  }
  return (copy ?? value) as T;
}

interface LoggedRequest {
  method: string;
  url: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

export function loggerOptions(level: string): FastifyServerOptions['logger'] {
  return {
    level,
    serializers: {
      req: (request: LoggedRequest) => ({
        method: request.method,
        url: redactUrl(request.url),
        host: request.host,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
      // pino's serializer copies an error's own fields, which may hold a credential (spread: its
      // result has a prototype of its own, which the walk would leave alone).
      err: (error: Error) => redactFields({ ...pino.stdSerializers.err(error) }),
    },
    // Not pino's `redact`: with wildcard paths it copied every logged object, a third of the
    // server's allocation under load; this walk copies only an object that holds a credential.
    formatters: { log: (fields: Record<string, unknown>) => redactFields(fields) },
    hooks: { streamWrite: redactLine },
  };
}

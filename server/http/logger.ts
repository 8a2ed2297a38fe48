import type { FastifyServerOptions } from 'fastify';

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

/** A last guard over every written line, for URLs and headers that reach a message some other way. */
export function redactLine(line: string): string {
  return line
    .replace(
      /([?&](?:[\w.-]*(?:token|key|secret|password|session|auth|signature|credential|code)[\w.-]*))=([^&\s"\\]+)/gi,
      `$1=${REDACTED}`,
    )
    .replace(/\b(Bearer|Basic)\s+[\w.~+/=-]+/g, `$1 ${REDACTED}`);
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
    },
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-session-api-key"]',
        'headers.authorization',
        'headers.cookie',
        'headers["x-session-api-key"]',
        '*.apiKey',
        '*.api_key',
        '*.llm_api_key',
        '*.password',
        '*.token',
        '*.access_token',
        '*.auth_token',
        '*.session_api_key',
      ],
      censor: REDACTED,
    },
    hooks: { streamWrite: redactLine },
  };
}

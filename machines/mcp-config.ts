import type { components } from '../openapi/schema.d.ts';

// The MCP configuration as the editor's text (spec §5): it must parse as JSON; sse_servers and
// stdio_servers must be arrays; each SSE entry a string or an object with a string url; each stdio
// entry needs a name and a command. OpenHands' newer shttp_servers (Streamable HTTP) is taken
// too: a URL string or an object with a url, an optional api_key and timeout (seconds, 1-3600).
// The contract's other shapes are checked too, so what Confirm accepts is what Save can store.

export type McpConfig = components['schemas']['McpConfig'];

/** i18n keys (settings namespace, mcp.errors.*), one per rule broken. */
export type McpConfigError =
  | 'invalidJson'
  | 'notAnObject'
  | 'unknownField'
  | 'sseNotArray'
  | 'stdioNotArray'
  | 'shttpNotArray'
  | 'sseUrl'
  | 'sseApiKey'
  | 'shttpUrl'
  | 'shttpApiKey'
  | 'shttpTimeout'
  | 'stdioProps'
  | 'stdioArgs'
  | 'stdioEnv';

export const EMPTY_MCP_CONFIG: McpConfig = { sse_servers: [], stdio_servers: [] };

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const isNonEmptyString = (value: unknown): value is string => typeof value === 'string' && value.trim() !== '';

const isOptionalString = (value: unknown) => value === undefined || value === null || typeof value === 'string';

function sseErrors(entry: unknown): McpConfigError[] {
  if (isNonEmptyString(entry)) return [];
  if (!isObject(entry) || !isNonEmptyString(entry.url)) return ['sseUrl'];
  return isOptionalString(entry.api_key) ? [] : ['sseApiKey'];
}

function shttpErrors(entry: unknown): McpConfigError[] {
  if (isNonEmptyString(entry)) return [];
  if (!isObject(entry) || !isNonEmptyString(entry.url)) return ['shttpUrl'];
  const { timeout } = entry;
  const errors: McpConfigError[] = isOptionalString(entry.api_key) ? [] : ['shttpApiKey'];
  const validTimeout =
    timeout === undefined ||
    timeout === null ||
    (Number.isInteger(timeout) && Number(timeout) >= 1 && Number(timeout) <= 3600);
  return validTimeout ? errors : [...errors, 'shttpTimeout'];
}

function stdioErrors(entry: unknown): McpConfigError[] {
  if (!isObject(entry) || !isNonEmptyString(entry.name) || !isNonEmptyString(entry.command)) return ['stdioProps'];
  const errors: McpConfigError[] = [];
  if (entry.args !== undefined && !(Array.isArray(entry.args) && entry.args.every((arg) => typeof arg === 'string')))
    errors.push('stdioArgs');
  if (entry.env !== undefined && !(isObject(entry.env) && Object.values(entry.env).every((v) => typeof v === 'string')))
    errors.push('stdioEnv');
  return errors;
}

/** The configuration the text holds (missing lists are empty), or every rule it breaks, each once. */
export function validateMcpConfig(text: string): { config: McpConfig } | { errors: McpConfigError[] } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return { errors: ['invalidJson'] };
  }
  if (!isObject(parsed)) return { errors: ['notAnObject'] };
  const { sse_servers: sse = [], stdio_servers: stdio = [], shttp_servers: shttp, ...rest } = parsed;
  const errors: McpConfigError[] = [];
  if (Object.keys(rest).length > 0) errors.push('unknownField');
  if (!Array.isArray(sse)) errors.push('sseNotArray');
  else errors.push(...sse.flatMap(sseErrors));
  if (!Array.isArray(stdio)) errors.push('stdioNotArray');
  else errors.push(...stdio.flatMap(stdioErrors));
  if (shttp !== undefined && !Array.isArray(shttp)) errors.push('shttpNotArray');
  else errors.push(...(shttp ?? []).flatMap(shttpErrors));
  if (errors.length > 0) return { errors: [...new Set(errors)] };
  return {
    config: {
      sse_servers: sse as McpConfig['sse_servers'],
      stdio_servers: stdio as McpConfig['stdio_servers'],
      ...(shttp !== undefined && { shttp_servers: shttp as McpConfig['shttp_servers'] }),
    },
  };
}

/** The editor's starting text: the configuration, indented. */
export const mcpConfigText = (config: McpConfig) => JSON.stringify(config, null, 2);

import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Unavailable } from '../shared/domain-errors.ts';
import { PAGE_HOST_HEADER } from '../shared/operations.ts';

/** Marks a call one node passed to another, which answers it itself whatever happens. */
export const FORWARDED_HEADER = 'x-atelier-forwarded-by';

// Hop-by-hop headers, and those fetch sets itself for the new connection and body.
const NOT_FORWARDED = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'host',
  'content-length',
]);

export const isForwarded = (request: FastifyRequest) => request.headers[FORWARDED_HEADER] !== undefined;

/**
 * Passes the call, body streaming, to the node at `target` and streams its answer back. The
 * owner authenticates and authorises the caller itself (tokens and session keys are in the
 * shared database), so this node adds nothing but the mark.
 */
export async function forwardTo(
  target: string,
  nodeId: string,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value !== undefined && !NOT_FORWARDED.has(name))
      headers.set(name, Array.isArray(value) ? value.join(', ') : value);
  }
  headers.set(FORWARDED_HEADER, nodeId);
  if (request.headers.host) headers.set(PAGE_HOST_HEADER, request.headers.host);
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  let upstream: Response;
  try {
    upstream = await fetch(new URL(request.url, target), {
      method: request.method,
      headers,
      redirect: 'manual',
      ...(hasBody && { body: Readable.toWeb(request.raw) as ReadableStream, duplex: 'half' }),
    });
  } catch {
    throw new Unavailable('The server running this conversation cannot be reached; try again in a moment.');
  }
  reply.status(upstream.status);
  for (const [name, value] of upstream.headers) if (!NOT_FORWARDED.has(name)) reply.header(name, value);
  return reply.send(upstream.body ? Readable.fromWeb(upstream.body as NodeReadableStream) : null);
}

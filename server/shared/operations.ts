import type { Multipart } from '@fastify/multipart';
import type { FastifyBaseLogger } from 'fastify';
import type { operations } from '../../openapi/schema.d.ts';

/** Every operationId of openapi/atelier.yaml. */
export type OperationId = keyof operations;

type Json<R> = R extends { content: { 'application/json': infer B } } ? B : never;
type Success<O> = O extends { responses: infer R }
  ? { [K in keyof R]: K extends 200 | 201 | 202 ? Json<R[K]> : never }[keyof R]
  : never;
/** Request bodies the edge reads as JSON and validates against their schema (CSP reports come as application/csp-report). */
export const JSON_BODY_TYPES = ['application/json', 'application/csp-report'] as const;
type JsonType<C> = Extract<keyof C, (typeof JSON_BODY_TYPES)[number]>;
/** The body of a content type the edge reads as JSON; others are read by the handler. */
type JsonBody<C> = [JsonType<C>] extends [never] ? undefined : C[JsonType<C>];
type Body<O> = O extends { requestBody: { content: infer C } }
  ? JsonBody<C>
  : O extends { requestBody?: { content: infer C } }
    ? JsonBody<C> | undefined
    : undefined;
type Params<O, Where extends string> = O extends { parameters: infer P }
  ? P extends { [K in Where]?: infer Q }
    ? NonNullable<Q>
    : never
  : never;

/** Set by a node that forwards a call to the one running the conversation: the Host the browser sent. */
export const PAGE_HOST_HEADER = 'x-atelier-page-host';

/** The signed-in user as every module sees it. */
export interface AuthUser {
  id: string;
  email: string;
  isActive: boolean;
}

export interface RequestContext<Op extends OperationId> {
  body: Body<operations[Op]>;
  query: Params<operations[Op], 'query'>;
  params: Params<operations[Op], 'path'>;
  headers: Record<string, string | string[] | undefined>;
  ip: string;
  /** Set on every operation that is not public; null on public ones without a valid token. */
  user: AuthUser | null;
  /** The raw bearer token, when one was sent and is valid. */
  token: string | null;
  /** On affiliate operations: the affiliate behind the bearer token (affiliate tokens only). */
  affiliate: { id: string } | null;
  /** The parts of a multipart/form-data body, streamed (set on operations whose body is multipart). */
  parts: ((options?: { preservePath?: boolean }) => AsyncIterableIterator<Multipart>) | null;
  /** The body's bytes as sent (set on operations marked `x-raw-body`, such as a signed webhook). */
  rawBody: Buffer | null;
  log: FastifyBaseLogger;
}

/** A non-JSON or non-default answer (files, redirects, 201...). */
export class RawResponse {
  constructor(
    readonly status: number,
    readonly body: unknown,
    readonly headers: Record<string, string> = {},
  ) {}
}

export type Handler<Op extends OperationId> = (
  ctx: RequestContext<Op>,
) => Promise<Success<operations[Op]> | RawResponse>;
export type Handlers = { [Op in OperationId]?: Handler<Op> };

/** Authenticated context: the http layer guarantees `user` on non-public operations. */
export function requireUser(ctx: { user: AuthUser | null }): AuthUser {
  if (!ctx.user) throw new Error('Handler of an authenticated operation ran without a user');
  return ctx.user;
}

import { Readable } from 'node:stream';
import fastifyMultipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config.ts';
import { RUNTIME_OPERATIONS, UPLOAD_LIMIT_BYTES } from '../../modules/conversations/index.ts';
import type { Modules } from '../../modules/index.ts';
import { bearerToken } from '../../shared/bearer-token.ts';
import { Forbidden, INACTIVE_ACCOUNT, NotAuthenticated, TooLarge } from '../../shared/domain-errors.ts';
import {
  JSON_BODY_TYPES,
  RawResponse,
  type AuthUser,
  type Handler,
  type OperationId,
} from '../../shared/operations.ts';
import { forwardTo, isForwarded } from '../forward.ts';
import type { Operation } from '../openapi.ts';

/** What an account that is not active yet may call: its sign-in, onboarding, settings, the public configuration (and the affiliate calls, which have accounts of their own). */
// A chat-only onboarding binds its chat to a new account before the account's registration onboarding.
const OPEN_WHILE_INACTIVE = new Set([
  'affiliate',
  'auth',
  'chat-onboarding',
  'onboarding',
  'options',
  'settings',
  'system',
]);
/** Billing calls an account that is not active yet may make too: they were open under `/api/auth` before billing had them. */
const BILLING_OPEN_WHILE_INACTIVE = new Set([
  'purchaseCredits',
  'listConversationGroupTransactions',
  'listOtherTransactions',
  'listCategoryTransactions',
]);

/** The bytes of the bodies of operations marked `x-raw-body`, kept beside the parsed body. */
const rawBodies = new WeakMap<FastifyRequest, Buffer>();
const RAW_BODY_LIMIT_BYTES = 1024 * 1024;

/** Reads the body once to keep its bytes (within a limit of its own), then hands them on to the JSON parser. */
async function keepRawBody(request: FastifyRequest, _reply: FastifyReply, payload: AsyncIterable<Buffer | string>) {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of payload) {
    const bytes = Buffer.from(chunk);
    size += bytes.length;
    if (size > RAW_BODY_LIMIT_BYTES) throw new TooLarge('The body is too large.');
    chunks.push(bytes);
  }
  const raw = Buffer.concat(chunks);
  rawBodies.set(request, raw);
  return Readable.from([raw]);
}

export interface OperationsOptions {
  config: Config;
  modules: Modules;
  /** The contract's operations, each answered by its handler (501 without one). */
  operations: Operation[];
  handlers: Record<string, Handler<OperationId> | undefined>;
  /** oss mode's one user, who is every caller without a token. */
  localUser: AuthUser | null;
}

/** A route per operation of the contract: its request validation, the caller's identity, and its handler. */
export const operationRoutes = fp<OperationsOptions>(
  async (app, { config, modules, operations, handlers, localUser }) => {
    const { manager } = modules.conversations;

    /**
     * Resolves the caller: the bearer token's user, else (on per-conversation calls) the owner
     * of the conversation whose session key came in X-Session-API-Key, else oss mode's local user.
     */
    async function identify(request: FastifyRequest, op: Operation) {
      const token = bearerToken(request.headers.authorization);
      // A chat-only onboarding call: the handler checks the chat's token against its chat.
      if (op.security.includes('chatToken')) {
        request.auth = { user: null, token: null, affiliate: null };
        if (typeof request.headers['x-chat-token'] !== 'string') throw new NotAuthenticated();
        return;
      }
      // Affiliate tokens are accepted by the affiliate operations only, and application tokens never there.
      if (op.security.includes('affiliateBearer')) {
        const affiliate = token ? await modules.affiliates.accounts.authenticate(token) : null;
        request.auth = { user: null, token: affiliate ? token : null, affiliate };
        if (!affiliate) throw new NotAuthenticated();
        return;
      }
      const user = token ? await modules.auth.authenticate(token) : null;
      const sessionKey = request.headers['x-session-api-key'];
      const conversationId = (request.params as { conversation_id?: string } | undefined)?.conversation_id;
      const owner =
        !user && typeof sessionKey === 'string' && conversationId && op.security.includes('sessionApiKey')
          ? await modules.conversations.service.bySessionKey(conversationId, sessionKey)
          : null;
      request.auth = { user: user ?? owner ?? localUser, token: user ? token : null, affiliate: null };
    }

    // The other JSON bodies are read as JSON is (a failure answers as one of JSON's, in the error handler).
    for (const type of JSON_BODY_TYPES)
      if (type !== 'application/json')
        app.addContentTypeParser(type, { parseAs: 'string' }, (_request, body, done) => {
          try {
            done(null, JSON.parse(body as string));
          } catch (error) {
            done(
              Object.assign(new Error((error as Error).message), { code: 'FST_ERR_CTP_INVALID_JSON_BODY' }),
              undefined,
            );
          }
        });

    // Uploads stream through request.parts(); the spec's limit is 200 MB per file and in total.
    await app.register(fastifyMultipart, { limits: { fileSize: UPLOAD_LIMIT_BYTES, files: 1000 } });

    for (const op of operations) {
      const handler = handlers[op.operationId];
      const isPublic = op.security.length === 0;
      app.route({
        method: op.method as 'GET',
        url: op.url,
        config: { operation: op },
        ...(op.bodyLimit && { bodyLimit: op.bodyLimit }),
        ...(op.rawBody && { preParsing: keepRawBody }),
        schema: requestSchema(op),
        // Before the body is read, so that it streams on to the node that runs the conversation.
        ...(RUNTIME_OPERATIONS.has(op.operationId) && {
          onRequest: async (request: FastifyRequest, reply: FastifyReply) => {
            const conversationId = (request.params as { conversation_id?: string }).conversation_id;
            const owner = conversationId && !isForwarded(request) ? await manager.ownerElsewhere(conversationId) : null;
            if (owner) return forwardTo(owner, config.nodeUrl, request, reply);
          },
        }),
        preHandler: async (request) => {
          await identify(request, op);
          if (!isPublic && !request.auth.user && !request.auth.affiliate && !op.security.includes('chatToken')) {
            // A session key that is not (or no longer) the conversation's: 403 'Not authenticated' on
            // getConversation, as the spec says (the client then leaves the conversation), else 401.
            const staleKey = op.operationId === 'getConversation' && request.headers['x-session-api-key'];
            throw staleKey ? new Forbidden('Not authenticated') : new NotAuthenticated();
          }
          // Spec §6: an account that has not finished registration onboarding reaches only that.
          const user = request.auth.user;
          const openWhileInactive = OPEN_WHILE_INACTIVE.has(op.tag) || BILLING_OPEN_WHILE_INACTIVE.has(op.operationId);
          if (user && !user.isActive && !isPublic && !openWhileInactive) throw new Forbidden(INACTIVE_ACCOUNT);
        },
        handler: async (request, reply) => {
          if (!handler) return reply.status(501).send({ detail: 'Not implemented' });
          const result = await handler({
            body: request.body as never,
            query: (request.query ?? {}) as never,
            params: (request.params ?? {}) as never,
            headers: request.headers,
            ip: request.ip,
            user: request.auth.user,
            token: request.auth.token,
            affiliate: request.auth.affiliate,
            parts: op.request.bodyType === 'multipart/form-data' ? (options) => request.parts(options) : null,
            rawBody: rawBodies.get(request) ?? null,
            log: request.log,
          });
          if (result instanceof RawResponse)
            return reply.status(result.status).headers(result.headers).send(result.body);
          return reply.status(200).send(result);
        },
      });
    }
  },
  { name: 'operation-routes' },
);

const INT32 = { minimum: -2_147_483_648, maximum: 2_147_483_647 };

/**
 * A copy of the schema where every integer the contract leaves unbounded gets the range of a
 * PostgreSQL integer, which is what such ids and counts are stored as (1e400 or 10^20 answered 500).
 */
function withIntegerBounds<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(withIntegerBounds) as T;
  if (schema === null || typeof schema !== 'object') return schema;
  const copy = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, withIntegerBounds(value)]));
  const type = (schema as { type?: unknown }).type;
  const isInteger = type === 'integer' || (Array.isArray(type) && type.includes('integer'));
  return (isInteger ? { ...INT32, ...copy } : copy) as T;
}

/** Only the parts the contract defines (Fastify warns about keys set to undefined). */
function requestSchema(op: Operation) {
  const { querystring, params, headers } = op.request;
  // An optional body may be left out entirely, which Fastify validates as null.
  const body =
    op.request.body && !op.request.bodyRequired ? { anyOf: [{ type: 'null' }, op.request.body] } : op.request.body;
  return withIntegerBounds({
    ...(body && { body }),
    ...(querystring && { querystring }),
    ...(params && { params }),
    ...(headers && { headers }),
  });
}

import fs from 'node:fs';
import path from 'node:path';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import fastifyMultipart from '@fastify/multipart';
import fastifyCompress from '@fastify/compress';
import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import Fastify, { LogController, type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';
import type { AgentFactory } from '../agent/types.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/index.ts';
import { USER_CHANGED } from '../modules/auth/index.ts';
import { RUNTIME_OPERATIONS, UPLOAD_LIMIT_BYTES } from '../modules/conversations/index.ts';
import { createModules } from '../modules/index.ts';
import { createEventBus } from '../realtime/bus.ts';
import { registerSocket } from '../realtime/socket.ts';
import { EventStreams } from '../realtime/streams.ts';
import { LocalRuntime } from '../runtime/local-runtime.ts';
import type { Runtime } from '../runtime/types.ts';
import { bearerToken } from '../shared/bearer-token.ts';
import { Forbidden, INACTIVE_ACCOUNT, NotAuthenticated, TooLarge } from '../shared/domain-errors.ts';
import { errorAnswer } from './error-answers.ts';
import { JSON_BODY_TYPES, RawResponse, type AuthUser, type Handler, type OperationId } from '../shared/operations.ts';
import { renderApiDocs } from './api-docs.ts';
import { recordCspViolation } from './csp-reports.ts';
import { FORWARDED_HEADER, forwardTo, isForwarded } from './forward.ts';
import { MAX_PROBLEMS_TOLD, refuseUnstorable } from './input-guard.ts';
import { OpenCounts } from '../shared/open-counts.ts';
import { landingPages } from './landing-page.ts';
import { applicationPages } from './page-preloads.ts';
import { acceptsGzip, builtAssets, isBuiltName } from './built-assets.ts';
import { inlineScriptHashes, securityHeaders } from './security-headers.ts';
import { httpDuration, metricsRegistry } from '../shared/metrics.ts';
import { loggerOptions } from './logger.ts';
import { listOperations, openapiPath, type Operation } from './openapi.ts';
import { lazyValidatorCompiler } from './lazy-validator.ts';
import { ResponseValidator } from './response-validator.ts';

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

export interface AppOptions {
  config: Config;
  database: Database;
  /** Directory of the built SPA; served with history fallback when it exists. */
  webRoot?: string;
  /** Record every answer that does not match the contract (tests). */
  validateResponses?: boolean;
  /** Creates each running conversation's agent; without it messages are recorded but nobody answers. */
  agentFactory?: AgentFactory;
  /** Where conversations' workspaces run; default: this machine, under `<DATA_DIR>/workspaces`. */
  runtime?: Runtime;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: { user: AuthUser | null; token: string | null; affiliate: { id: string } | null };
  }
  interface FastifyContextConfig {
    operation?: Operation;
  }
}

/** Paths that belong to the API: never answered with the SPA. */
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

const apiPrefixes = ['/api/', '/feedback/', '/socket', '/health', '/ready'];
/** Answers longer than this (in characters) are encoded to UTF-8 once, before node:http sees them. */
const ENCODE_ONCE_FROM = 16 * 1024;

export async function buildApp({
  config,
  database,
  webRoot,
  validateResponses,
  agentFactory,
  runtime: givenRuntime,
}: AppOptions) {
  const app = Fastify({
    logger: loggerOptions(config.logLevel),
    // One line per request, when it is answered (below), instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    trustProxy: config.trustProxy,
    // The router's own refusals (a bad percent-escape, an over-long path parameter) speak the API's error shape too.
    frameworkErrors: (error, _request, reply) =>
      void (reply as FastifyReply).status(error.statusCode ?? 400).send({ detail: error.message }),
    bodyLimit: 10 * 1024 * 1024,
    // A request (headers and body) must arrive within this; its headers within HEADERS_TIMEOUT_MS.
    // Node checks every connection's deadlines once a second instead of every 30 s.
    requestTimeout: config.connections.requestTimeoutMs,
    // (Node applies the request's deadline only when the headers' is no later.)
    http: {
      headersTimeout: Math.min(HEADERS_TIMEOUT_MS, config.connections.requestTimeoutMs),
      connectionsCheckingInterval: 1000,
    },
  });
  limitConnections(app.server, config.connections);
  app.setValidatorCompiler(lazyValidatorCompiler());
  const bus = await createEventBus(config.databaseUrl, app.log);
  const runtime =
    givenRuntime ??
    new LocalRuntime({
      rootDir: path.join(config.dataDir, 'workspaces'),
      hiddenDirs: [config.dataDir],
      hostPorts: config.sandboxHostPorts,
      browserPolicy: config.outbound,
      requireIsolation: config.sandboxRequired,
      limits: config.sandboxLimits,
      logger: app.log,
    });
  const modules = createModules(config, database, { bus, runtime, agentFactory, log: app.log });
  const { manager } = modules.conversations;
  // PGlite is embedded, so nothing else can be running its conversations.
  await manager.recover(database.kind === 'pglite');
  // Deployments are charged hour by hour; every node may run this, the ledger's keys charge once.
  await modules.deployments.restore(app.log);
  const charging = setInterval(
    () =>
      void modules.deployments
        .chargeDue()
        .catch((error: unknown) => app.log.error({ err: error }, 'charging deployments failed')),
    60_000,
  ).unref();
  // Onboarding chats' retention, hourly on every node (the deletes are idempotent).
  const sweepChats = () =>
    void modules.chatOnboarding
      .sweep()
      .catch((error: unknown) => app.log.error({ err: error }, 'deleting ended onboarding chats failed'));
  sweepChats();
  const sweeping = setInterval(sweepChats, 3600_000).unref();
  // preClose: before the test harness's or main.ts's own onClose closes the database they need.
  app.addHook('preClose', async () => {
    clearInterval(charging);
    clearInterval(sweeping);
    await manager.shutdown();
    await bus.close();
  });
  const localUser = config.appMode === 'oss' ? await modules.auth.ensureLocalUser() : null;
  const validator = validateResponses ? new ResponseValidator() : null;

  app.decorateRequest('auth', null as never);
  // The path and query before anything (a runtime call's owner is looked up in onRequest), the body once parsed.
  app.addHook('onRequest', async (request) => refuseUnstorable({ path: request.params, query: request.query }));
  app.addHook('preValidation', async (request) => refuseUnstorable({ body: request.body }));
  app.addHook('onResponse', async (request, reply) => {
    request.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
    const operation =
      request.routeOptions.config.operation?.operationId ?? (request.routeOptions.url ? 'static' : 'unknown');
    httpDuration.observe(
      { operation, method: request.method, status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });
  app.setErrorHandler((error: FastifyError, request, reply) => sendError(error, request, reply));
  const application = webRoot && fs.existsSync(webRoot) ? applicationPages(webRoot) : null;
  /** A page in the visitor's language: asked for again on every visit, as its scripts' names change with each build. */
  const sendPage = (reply: FastifyReply, html: string) =>
    reply
      .header('cache-control', 'no-cache')
      .header('vary', 'Accept-Language')
      .type('text/html; charset=utf-8')
      .send(html);
  const sendApplication = (request: FastifyRequest, reply: FastifyReply) => {
    if (!application) return reply.header('cache-control', 'no-cache').sendFile('index.html');
    return sendPage(reply, application(request.url.split('?')[0] ?? '/', request.headers['accept-language']));
  };
  app.setNotFoundHandler((request, reply) => {
    const index = webRoot && path.join(webRoot, 'index.html');
    // A missing built file is not a page: the browser asked for a script, a stylesheet or an image.
    const wantsPage = request.method === 'GET' && ![...apiPrefixes, '/assets/'].some((p) => request.url.startsWith(p));
    if (index && wantsPage && fs.existsSync(index)) return sendApplication(request, reply);
    return reply.status(404).send({ detail: 'Not found' });
  });

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

  const headersFor = securityHeaders({
    publicUrl: config.publicUrl,
    vscodeUrl: config.vscodeUrl,
    inlineScripts: inlineScriptHashes(webRoot && fs.existsSync(webRoot) ? webRoot : null),
  });
  app.addHook('onSend', async (request, reply, payload) => {
    reply.headers(headersFor(request.hostname));
    return payload;
  });

  if (validator) {
    app.addHook('onSend', async (request, reply, payload) => {
      const op = request.routeOptions.config.operation;
      // A forwarded answer was checked on the node that gave it; one to a connection already gone
      // (a body cut off at the request timeout) reaches nobody.
      if (op && !request.raw.destroyed && !(payload instanceof Readable && RUNTIME_OPERATIONS.has(op.operationId)))
        validator.check(op, reply.statusCode, reply.getHeader('content-type') as string | undefined, payload);
      return payload;
    });
  }

  // Registered last, so the checks above see the text. Given a string, Fastify flattens
  // JSON.stringify's rope to count its bytes and node:http encodes it again to write it: a long
  // answer (a trajectory, an events page) is encoded once instead.
  app.addHook('onSend', async (_request, _reply, payload) =>
    typeof payload === 'string' && payload.length > ENCODE_ONCE_FROM ? Buffer.from(payload) : payload,
  );

  // The other JSON bodies are read as JSON is (a failure answers as one of JSON's, below).
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

  // Pages and JSON answers gzipped for a browser that takes it (events pages shrink about 4×);
  // the built assets come gzipped already, and archives and images are not compressible types.
  await app.register(fastifyCompress, {
    global: true,
    threshold: 1024,
    encodings: ['gzip'],
    // Beside the compressible types of mime-db (HTML, JSON, JavaScript): the contract's YAML.
    customTypes: /^application\/yaml\b/,
  });

  // Uploads stream through request.parts(); the spec's limit is 200 MB per file and in total.
  await app.register(fastifyMultipart, { limits: { fileSize: UPLOAD_LIMIT_BYTES, files: 1000 } });

  const operations = listOperations();
  // Rendered when first asked for, not at every start.
  let docsPage: string | null = null;
  const documentText = fs.readFileSync(openapiPath, 'utf8');
  const reportCspViolation: Handler<'reportCspViolation'> = async (ctx) => {
    recordCspViolation(ctx.body['csp-report'], ctx.log);
    return { success: true };
  };
  const handlers = {
    ...modules.handlers,
    getApiDocs: async () =>
      new RawResponse(200, (docsPage ??= renderApiDocs('Atelier API', operations)), {
        'content-type': 'text/html; charset=utf-8',
      }),
    getMetrics: async () =>
      new RawResponse(200, await metricsRegistry.metrics(), { 'content-type': metricsRegistry.contentType }),
    getOpenApiDocument: async () =>
      new RawResponse(200, documentText, { 'content-type': 'application/yaml; charset=utf-8' }),
    reportCspViolation,
  } as Record<string, Handler<OperationId> | undefined>;
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
        if (user && !user.isActive && !isPublic && !OPEN_WHILE_INACTIVE.has(op.tag))
          throw new Forbidden(INACTIVE_ACCOUNT);
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
        if (result instanceof RawResponse) return reply.status(result.status).headers(result.headers).send(result.body);
        return reply.status(200).send(result);
      },
    });
  }

  // A client's frame is at most what a REST body may be (ws would take 100 MB).
  await app.register(fastifyWebsocket, { options: { maxPayload: 10 * 1024 * 1024 } });
  const { events, service } = modules.conversations;
  registerSocket(app, {
    identify: async (token) => (token ? await modules.auth.authenticate(token) : null) ?? localUser,
    bySessionKey: service.bySessionKey,
    onUserChanged: (listener) => bus.onAnnouncement(USER_CHANGED, listener),
    limits: config.socketLimits,
    owns: async (user, id) => (await service.find(user, id)) !== null,
    act: service.act,
    terminal: (conversationId, terminalId) => manager.session(conversationId)?.terminals.get(terminalId) ?? null,
    ownerElsewhere: async (conversationId, headers) =>
      headers[FORWARDED_HEADER] === undefined ? manager.ownerElsewhere(conversationId) : null,
    passOnHeaders: { [FORWARDED_HEADER]: config.nodeUrl },
    events,
    streams: new EventStreams(bus, events, app.log),
    chats: {
      ...modules.chatOnboarding.socket,
      streams: new EventStreams(bus, modules.chatOnboarding.socket.events, app.log),
    },
  });

  if (webRoot && fs.existsSync(webRoot)) {
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: true,
      index: false,
      // Its own cache-control (max-age=0 on everything) would override the one set here.
      cacheControl: false,
      setHeaders: (res, file) => {
        const immutable = file.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('cache-control', immutable ? IMMUTABLE : 'no-cache');
      },
    });
    const assets = builtAssets(path.join(webRoot, 'assets'));
    app.get('/assets/:name', async (request, reply) => {
      const { name } = request.params as { name: string };
      if (!isBuiltName(name)) return reply.callNotFound();
      const asset = await assets.get(name);
      if (!asset) return reply.sendFile(path.join('assets', name));
      reply.header('cache-control', IMMUTABLE).header('vary', 'Accept-Encoding').header('etag', asset.etag);
      if (request.headers['if-none-match'] === asset.etag) return reply.status(304).send();
      const gzipped = asset.gzipped && acceptsGzip(request.headers['accept-encoding']) ? asset.gzipped : null;
      if (gzipped) reply.header('content-encoding', 'gzip');
      return reply.type(asset.contentType).send(gzipped ?? asset.raw);
    });
    // The public landing page, prerendered in the visitor's language; without it the application's page.
    // A self-hosted installation (oss) has no public site: its / is the application.
    const landing = config.appMode === 'saas' ? landingPages(webRoot, config.buildNumber) : null;
    app.get('/', (request, reply) => {
      if (!landing) return sendApplication(request, reply);
      return sendPage(reply, landing(request.headers['accept-language']));
    });
  }

  // A plain object: a Fastify instance is thenable, which confuses `await` and Awaited<>.
  return { http: app, operations, modules, implemented: new Set(Object.keys(handlers)), contract: validator };
}

/** The build's hashed files: their names change with their content. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Only the parts the contract defines (Fastify warns about keys set to undefined). */
const INT32 = { minimum: -2_147_483_648, maximum: 2_147_483_647 };

/**
 * A copy of the schema where every integer the contract leaves unbounded gets the range of a
 * PostgreSQL integer, which is what such ids and counts are stored as (1e400 or 10^20 answered 500).
 */
export function withIntegerBounds<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(withIntegerBounds) as T;
  if (schema === null || typeof schema !== 'object') return schema;
  const copy = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, withIntegerBounds(value)]));
  const type = (schema as { type?: unknown }).type;
  const isInteger = type === 'integer' || (Array.isArray(type) && type.includes('integer'));
  return (isInteger ? { ...INT32, ...copy } : copy) as T;
}

/** Headers trickled in more slowly than this end the connection (a slow-loris attack holds it open otherwise). */
const HEADERS_TIMEOUT_MS = 15_000;

/**
 * At most `max` connections, and `perAddress` from one address: past either, a new connection is
 * closed at once. Behind a proxy every connection comes from the proxy's address: raise it there.
 */
function limitConnections(server: Server, limits: { max: number; perAddress: number }) {
  server.maxConnections = limits.max;
  const open = new OpenCounts();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    if (!open.take(address, limits.perAddress)) return void socket.destroy();
    socket.once('close', () => open.give(address));
  });
}

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

function sendError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
  const answer = errorAnswer(error);
  if (answer) return reply.status(answer.status).headers(answer.headers).send(answer.body);
  const fastifyError = error as FastifyError;
  // A body that does not parse is a validation failure of the body, as for any wrong field (422, every operation documents it).
  if (fastifyError.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || fastifyError.code === 'FST_ERR_CTP_EMPTY_JSON_BODY')
    return reply
      .status(422)
      .send({ detail: [{ loc: ['body'], msg: `The body is not valid JSON: ${error.message}`, type: 'json_invalid' }] });
  if (fastifyError.validation) {
    const where = fastifyError.validationContext ?? 'body';
    const detail = fastifyError.validation.slice(0, MAX_PROBLEMS_TOLD).map((v) => {
      const field =
        (v.params as { missingProperty?: string; additionalProperty?: string }).missingProperty ??
        (v.params as { additionalProperty?: string }).additionalProperty;
      const loc = [where, ...v.instancePath.split('/').filter(Boolean), ...(field ? [field] : [])];
      const name = loc.length > 1 ? String(loc[loc.length - 1]) : where;
      return { loc, msg: `${name} ${v.message ?? 'is invalid'}`, type: v.keyword, ctx: v.params };
    });
    return reply.status(422).send({ detail });
  }
  const status = fastifyError.statusCode ?? 500;
  if (status >= 500) {
    request.log.error({ err: error }, 'request failed');
    return reply.status(500).send({ detail: 'Internal server error' });
  }
  return reply.status(status).send({ detail: error.message });
}

export type App = Awaited<ReturnType<typeof buildApp>>;

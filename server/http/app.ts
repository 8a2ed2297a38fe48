import fs from 'node:fs';
import path from 'node:path';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyReply } from 'fastify';
import type { AgentFactory } from '../agent/types.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/index.ts';
import { createModules } from '../modules/index.ts';
import { createEventBus } from '../realtime/bus.ts';
import { LocalRuntime } from '../runtime/local-runtime.ts';
import type { Runtime } from '../runtime/types.ts';
import { OpenCounts } from '../shared/open-counts.ts';
import type { Handler, OperationId } from '../shared/operations.ts';
import { edgeHandlers } from './edge-handlers.ts';
import { lazyValidatorCompiler } from './lazy-validator.ts';
import { loggerOptions } from './logger.ts';
import { listOperations } from './openapi.ts';
import { backgroundJobs } from './plugins/background-jobs.ts';
import { errors } from './plugins/errors.ts';
import { operationRoutes } from './plugins/operations.ts';
import { realtime } from './plugins/realtime.ts';
import { requestHooks } from './plugins/request-hooks.ts';
import { webPages } from './plugins/web-pages.ts';
import { ResponseValidator } from './response-validator.ts';

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

/**
 * The composition root: builds the services, then registers the plugins in the order their hooks
 * must run. Each plugin is wrapped with fastify-plugin, so its hooks, parsers and handlers hold for
 * the whole server (an unknown path must be refused as the API's own paths are).
 */
export async function buildApp({ config, database, webRoot, validateResponses, agentFactory, runtime }: AppOptions) {
  const app = createServer(config);
  const bus = await createEventBus(config.databaseUrl, app.log);
  const modules = createModules(config, database, {
    bus,
    runtime: runtime ?? localRuntime(config, app.log),
    agentFactory,
    log: app.log,
  });
  const { manager } = modules.conversations;
  // PGlite is embedded, so nothing else can be running its conversations.
  await manager.recover(database.kind === 'pglite');
  await app.register(backgroundJobs, { modules });
  // preClose: before the test harness's or main.ts's own onClose closes the database they need.
  app.addHook('preClose', async () => {
    await manager.shutdown();
    await bus.close();
  });
  const localUser = config.appMode === 'oss' ? await modules.auth.ensureLocalUser() : null;
  const contract = validateResponses ? new ResponseValidator() : null;
  const operations = listOperations();
  const handlers: Record<string, Handler<OperationId> | undefined> = {
    ...modules.handlers,
    ...edgeHandlers(operations),
  };

  await app.register(requestHooks, { config, site: webRoot && fs.existsSync(webRoot) ? webRoot : null, contract });
  await app.register(errors);
  await app.register(operationRoutes, { config, modules, operations, handlers, localUser });
  await app.register(realtime, { config, db: database.db, modules, bus, localUser });
  await app.register(webPages, { config, webRoot });

  // A plain object: a Fastify instance is thenable, which confuses `await` and Awaited<>.
  return { http: app, operations, modules, implemented: new Set(Object.keys(handlers)), contract };
}

export type App = Awaited<ReturnType<typeof buildApp>>;

function createServer(config: Config) {
  const app = Fastify({
    logger: loggerOptions(config.logLevel),
    // One line per request, when it is answered (in the request hooks), instead of Fastify's two.
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
  return app;
}

function localRuntime(config: Config, logger: FastifyBaseLogger) {
  return new LocalRuntime({
    rootDir: path.join(config.dataDir, 'workspaces'),
    hiddenDirs: [config.dataDir],
    hostPorts: config.sandboxHostPorts,
    browserPolicy: config.outbound,
    requireIsolation: config.sandboxRequired,
    limits: config.sandboxLimits,
    logger,
  });
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

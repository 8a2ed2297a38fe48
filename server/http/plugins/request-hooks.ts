import { Readable } from 'node:stream';
import fastifyCompress from '@fastify/compress';
import fp from 'fastify-plugin';
import type { Config } from '../../config.ts';
import { RUNTIME_OPERATIONS } from '../../modules/conversations/index.ts';
import { httpDuration } from '../../shared/metrics.ts';
import type { AuthUser } from '../../shared/operations.ts';
import { refuseUnstorable } from '../input-guard.ts';
import type { Operation } from '../openapi.ts';
import type { ResponseValidator } from '../response-validator.ts';
import { inlineScriptHashes, securityHeaders } from '../security-headers.ts';

declare module 'fastify' {
  interface FastifyRequest {
    auth: { user: AuthUser | null; token: string | null; affiliate: { id: string } | null };
  }
  interface FastifyContextConfig {
    operation?: Operation;
  }
}

/** Answers longer than this (in characters) are encoded to UTF-8 once, before node:http sees them. */
const ENCODE_ONCE_FROM = 16 * 1024;

export interface RequestHooksOptions {
  config: Config;
  /** The built SPA's directory, when there is one: its inline scripts are allowed by hash. */
  site: string | null;
  /** Records every answer that does not match the contract (tests). */
  contract: ResponseValidator | null;
}

/** What every request goes through: input guards, the log line and metrics, security headers, compression. */
export const requestHooks = fp<RequestHooksOptions>(
  async (app, { config, site, contract }) => {
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

    const headersFor = securityHeaders({
      publicUrl: config.publicUrl,
      vscodeUrl: config.vscodeUrl,
      inlineScripts: inlineScriptHashes(site),
    });
    app.addHook('onSend', async (request, reply, payload) => {
      reply.headers(headersFor(request.hostname));
      return payload;
    });

    if (contract) {
      app.addHook('onSend', async (request, reply, payload) => {
        const op = request.routeOptions.config.operation;
        // A forwarded answer was checked on the node that gave it; one to a connection already gone
        // (a body cut off at the request timeout) reaches nobody.
        if (op && !request.raw.destroyed && !(payload instanceof Readable && RUNTIME_OPERATIONS.has(op.operationId)))
          contract.check(op, reply.statusCode, reply.getHeader('content-type') as string | undefined, payload);
        return payload;
      });
    }

    // Registered last, so the checks above see the text. Given a string, Fastify flattens
    // JSON.stringify's rope to count its bytes and node:http encodes it again to write it: a long
    // answer (a trajectory, an events page) is encoded once instead.
    app.addHook('onSend', async (_request, _reply, payload) =>
      typeof payload === 'string' && payload.length > ENCODE_ONCE_FROM ? Buffer.from(payload) : payload,
    );

    // Pages and JSON answers gzipped for a browser that takes it (events pages shrink about 4×);
    // the built assets come gzipped already, and archives and images are not compressible types.
    await app.register(fastifyCompress, {
      global: true,
      threshold: 1024,
      encodings: ['gzip'],
      // Beside the compressible types of mime-db (HTML, JSON, JavaScript): the contract's YAML.
      customTypes: /^application\/yaml\b/,
    });
  },
  { name: 'request-hooks' },
);

import { createServer, type IncomingHttpHeaders, type Server as HttpServer } from 'node:http';
import net from 'node:net';
import httpProxy from '@fastify/http-proxy';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { pickLanguage } from '../../../locales/languages.ts';
import de from '../../../locales/de/tabs.json' with { type: 'json' };
import en from '../../../locales/en/tabs.json' with { type: 'json' };
import fr from '../../../locales/fr/tabs.json' with { type: 'json' };
import type { RuntimeSession } from '../../runtime/types.ts';
import type { SecretBox } from '../../shared/secret-box.ts';
import { escapeHtml, preferredLanguages } from '../../shared/web-text.ts';

// A conversation's served apps are reached through Atelier only, by the conversation's owner.
// The app listens in the conversation's network namespace; pasta forwards it to a port of the
// host's loopback that nothing but this proxy uses. The proxy listens on the app's own port, on
// the interface Atelier listens on, so the app keeps an origin of its own (never Atelier's: its
// scripts cannot read Atelier's storage) and its absolute URLs and WebSockets work as they are
// (a Vite dev server's hot reload): paths are not rewritten, the Host header is kept.
//
// web-hosts hands the owner a link with a short-lived signed token; the proxy trades it for a
// signed, HttpOnly cookie named for the port (cookies do not tell ports apart) and sends the
// browser on without it. Every request then shows the cookie, which names the conversation,
// its owner and the port: another user, nobody, or a conversation that has since left the port
// is refused. Chosen over a per-conversation host name because that needs wildcard DNS and
// certificates, and `*.localhost` names do not exist at 127.0.0.1.

const TOKEN_PARAMETER = 'atelier_app_token';
const COOKIE_PREFIX = 'atelier_app_';
const LINK_TTL_MS = 5 * 60_000;
const COOKIE_TTL_MS = 12 * 3600_000;
const SIGNING_PURPOSE = 'app-proxy';
const TEXTS = { en: en.app.proxy, de: de.app.proxy, fr: fr.app.proxy };

interface Grant {
  /** Conversation, owner, port, kind (link or cookie), expiry (ms). */
  c: string;
  u: string;
  p: number;
  k: 'link' | 'cookie';
  e: number;
}

export interface AppProxyOptions {
  /** The interface Atelier listens on (HOST). */
  host: string;
  box: SecretBox;
  /** Atelier's own address, for the link on the refusal page. */
  publicUrl: string;
  log: { warn: (details: object, message: string) => void };
}

/** A running conversation's served ports: who may open them, and what answers behind them. */
interface Served {
  conversationId: string;
  userId: string;
  session: RuntimeSession;
  listeners: net.Server[];
  /** Connections still open, ended with the conversation (keep-alive would outlive its listeners). */
  sockets: Set<net.Socket>;
}

/** The addresses `host` stands for: `localhost` is both loopbacks, as Atelier's own listener takes it. */
const listenAddresses = (host: string) => (host === 'localhost' ? ['127.0.0.1', '::1'] : [host]);

/**
 * One Fastify app serves every conversation's app ports: each port's listeners hand their
 * connections to its HTTP server, and a request is the app of the port it arrived on.
 */
export class AppProxy {
  private readonly served = new Map<number, Served>();
  private readonly byConversation = new Map<string, Served>();
  private proxy: Promise<{ app: FastifyInstance; http: HttpServer }> | null = null;

  constructor(private readonly options: AppProxyOptions) {}

  private sign(grant: Grant): string {
    const value = Buffer.from(JSON.stringify(grant)).toString('base64url');
    return `${value}.${this.options.box.sign(SIGNING_PURPOSE, value)}`;
  }

  /** The grant a token or cookie carries, when signed here, unexpired and of the kind asked for. */
  private grantOf(token: string | undefined, kind: Grant['k']): Grant | null {
    const [value, signature] = (token ?? '').split('.');
    if (!value || !signature || !this.options.box.verify(SIGNING_PURPOSE, value, signature)) return null;
    try {
      const grant = JSON.parse(Buffer.from(value, 'base64url').toString('utf8')) as Grant;
      return grant.k === kind && grant.e > Date.now() ? grant : null;
    } catch {
      return null;
    }
  }

  private cookieFor(conversationId: string, userId: string, port: number) {
    return {
      name: `${COOKIE_PREFIX}${port}`,
      value: this.sign({ c: conversationId, u: userId, p: port, k: 'cookie', e: Date.now() + COOKIE_TTL_MS }),
    };
  }

  /**
   * Starts serving a running conversation's app ports (when its apps listen in a namespace of
   * their own). The agent's browser reaches them by its own proxy (runtime/browser-proxy.ts).
   */
  async open(conversationId: string, userId: string, session: RuntimeSession): Promise<void> {
    if (!session.proxiedApps || this.byConversation.has(conversationId)) return;
    const { http } = await this.app();
    const served: Served = { conversationId, userId, session, listeners: [], sockets: new Set() };
    this.byConversation.set(conversationId, served);
    for (const port of session.ports) this.served.set(port, served);
    try {
      for (const port of session.ports)
        for (const address of listenAddresses(this.options.host)) {
          const listener = net.createServer((socket) => {
            served.sockets.add(socket);
            socket.once('close', () => served.sockets.delete(socket));
            http.emit('connection', socket);
          });
          try {
            await new Promise<void>((resolve, reject) => {
              listener.once('error', reject);
              listener.listen({ port, host: address, exclusive: true }, resolve);
            });
          } catch (error) {
            // A host without an IPv6 loopback still serves on 127.0.0.1.
            if (address === '::1' && (error as NodeJS.ErrnoException).code === 'EADDRNOTAVAIL') continue;
            throw error;
          }
          served.listeners.push(listener);
        }
    } catch (error) {
      await this.close(conversationId);
      throw error;
    }
  }

  async close(conversationId: string): Promise<void> {
    const served = this.byConversation.get(conversationId);
    if (!served) return;
    this.byConversation.delete(conversationId);
    for (const [port, holder] of this.served) if (holder === served) this.served.delete(port);
    // close() calls back once every connection has ended: they are ended now, not awaited (an
    // open WebSocket to the app would hold the conversation's stop for ever).
    const closed = served.listeners.map((listener) => new Promise((resolve) => listener.close(resolve)));
    for (const socket of served.sockets) socket.destroy();
    await Promise.all(closed);
  }

  async closeAll(): Promise<void> {
    await Promise.allSettled([...this.byConversation.keys()].map((id) => this.close(id)));
    const proxy = await this.proxy;
    this.proxy = null;
    await proxy?.app.close();
  }

  /** The owner's links to the served ports, at the host name the owner's browser reached Atelier by. */
  links(conversationId: string, userId: string, ports: readonly number[], pageHost: string): string[] {
    const hostname = new URL(`http://${pageHost}`).hostname;
    return ports.map((port) => {
      const token = this.sign({ c: conversationId, u: userId, p: port, k: 'link', e: Date.now() + LINK_TTL_MS });
      return `http://${hostname}:${port}/?${TOKEN_PARAMETER}=${token}`;
    });
  }

  /** The proxy's app, made on first use; it listens nowhere itself. */
  private app(): Promise<{ app: FastifyInstance; http: HttpServer }> {
    this.proxy ??= (async () => {
      let http: HttpServer | null = null;
      const app = Fastify({
        logger: false,
        serverFactory: (handler) => {
          http = createServer(handler);
          return http;
        },
      });
      this.routes(app);
      await app.ready();
      return { app, http: http as unknown as HttpServer };
    })();
    return this.proxy;
  }

  private routes(app: FastifyInstance): void {
    const upstreams = new WeakMap<FastifyRequest, string>();
    /** The served port a request arrived on, and whether its grant is this conversation's, owner's and port's. */
    const owned = (request: FastifyRequest, grant: Grant | null) => {
      const port = request.socket.localPort ?? 0;
      const served = this.served.get(port);
      const valid =
        served !== undefined &&
        grant !== null &&
        grant.c === served.conversationId &&
        grant.u === served.userId &&
        grant.p === port;
      return valid ? { port, served } : null;
    };
    app.addHook('onRequest', async (request, reply) => {
      const url = new URL(request.url, 'http://app');
      const link = url.searchParams.get(TOKEN_PARAMETER);
      if (link !== null) {
        const found = owned(request, this.grantOf(link, 'link'));
        if (!found) return refuse(request, reply, 401, 'signIn', this.options.publicUrl);
        url.searchParams.delete(TOKEN_PARAMETER);
        const cookie = this.cookieFor(found.served.conversationId, found.served.userId, found.port);
        return reply
          .header(
            'set-cookie',
            `${cookie.name}=${cookie.value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${COOKIE_TTL_MS / 1000}`,
          )
          .header('cache-control', 'no-store')
          .redirect(`${url.pathname}${url.search}`, 302);
      }
      const port = request.socket.localPort ?? 0;
      const found = owned(
        request,
        this.grantOf(cookiesOf(request.headers.cookie).get(`${COOKIE_PREFIX}${port}`), 'cookie'),
      );
      if (!found) return refuse(request, reply, 401, 'signIn', this.options.publicUrl);
      const target = await found.served.session.appTarget(port);
      if (!target) return refuse(request, reply, 502, 'nothing', this.options.publicUrl);
      upstreams.set(request, `http://${target.host.includes(':') ? `[${target.host}]` : target.host}:${target.port}`);
    });
    // Honoured by the plugin for WebSockets (index.js), though its types leave it out.
    const wsClientOptions = {
      perMessageDeflate: true,
      rewriteRequestHeaders: (headers: IncomingHttpHeaders, request: FastifyRequest) =>
        forwardedHeaders(request.headers, headers),
    };
    void app.register(httpProxy, {
      upstream: '',
      websocket: true,
      // The body goes to the app as it came.
      proxyPayloads: true,
      // Redirects are the app's own; nothing to rewrite.
      internalRewriteLocationHeader: false,
      replyOptions: {
        getUpstream: (request) => upstreams.get(request as FastifyRequest) ?? 'http://127.0.0.1:9',
        rewriteRequestHeaders: (request, headers) => forwardedHeaders(request.headers, headers),
      },
      wsClientOptions,
    });
    app.setErrorHandler((error, request, reply) => {
      this.options.log.warn({ err: error, port: request.socket.localPort }, 'the app proxy could not reach the app');
      return refuse(request, reply, 502, 'nothing', this.options.publicUrl);
    });
  }
}

/** The request's cookies by name. */
function cookiesOf(header: string | undefined): Map<string, string> {
  const found = new Map<string, string>();
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0) found.set(part.slice(0, at).trim(), part.slice(at + 1).trim());
  }
  return found;
}

/** What the app gets: the browser's headers with the Host it asked for, without the proxy's cookies. */
function forwardedHeaders(original: IncomingHttpHeaders, headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const kept = (original.cookie ?? '')
    .split(';')
    .filter((part) => part.trim() !== '' && !part.trim().startsWith(COOKIE_PREFIX))
    .join(';')
    .trim();
  const { cookie: _dropped, ...rest } = headers;
  return { ...rest, host: original.host, ...(kept ? { cookie: kept } : {}) };
}

/** A small page in the visitor's language: the app is not theirs, or nothing is served yet. */
function refuse(
  request: FastifyRequest,
  reply: FastifyReply,
  status: 401 | 502,
  key: 'signIn' | 'nothing',
  publicUrl: string,
): FastifyReply {
  const language = pickLanguage(preferredLanguages(request.headers['accept-language']));
  const text = TEXTS[language as keyof typeof TEXTS] ?? TEXTS.en;
  const body = `<!doctype html><html lang="${language}"><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(text.title)}</title><body style="font-family:system-ui,sans-serif;max-width:36rem;margin:4rem auto;padding:0 1rem"><h1>${escapeHtml(text.title)}</h1><p>${escapeHtml(text[key])}</p><p><a href="${escapeHtml(publicUrl)}">${escapeHtml(text.open)}</a></p></body></html>`;
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(body);
}

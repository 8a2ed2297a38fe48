import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config.ts';
import { acceptsGzip, builtAssets, isBuiltName } from '../built-assets.ts';
import { landingPages } from '../landing-page.ts';
import { applicationPages } from '../page-preloads.ts';

/** Paths that belong to the API: never answered with the SPA. */
const API_PREFIXES = ['/api/', '/feedback/', '/socket', '/health', '/ready'];

/** The build's hashed files: their names change with their content. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

export interface WebPagesOptions {
  config: Config;
  /** Directory of the built SPA; served with history fallback when it exists. */
  webRoot?: string;
}

/** The built SPA: its assets, the landing page, and every other page path answered with the application. */
export const webPages = fp<WebPagesOptions>(
  async (app, { config, webRoot }) => {
    const site = webRoot && fs.existsSync(webRoot) ? webRoot : null;
    const application = site ? applicationPages(site) : null;
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
      const wantsPage =
        request.method === 'GET' && ![...API_PREFIXES, '/assets/'].some((p) => request.url.startsWith(p));
      if (index && wantsPage && fs.existsSync(index)) return sendApplication(request, reply);
      return reply.status(404).send({ detail: 'Not found' });
    });
    if (!site) return;

    await app.register(fastifyStatic, {
      root: site,
      wildcard: true,
      index: false,
      // Its own cache-control (max-age=0 on everything) would override the one set here.
      cacheControl: false,
      setHeaders: (res, file) => {
        const immutable = file.includes(`${path.sep}assets${path.sep}`);
        res.setHeader('cache-control', immutable ? IMMUTABLE : 'no-cache');
      },
    });
    const assets = builtAssets(path.join(site, 'assets'));
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
    const landing = config.appMode === 'saas' ? landingPages(site, config.buildNumber) : null;
    app.get('/', (request, reply) => {
      if (!landing) return sendApplication(request, reply);
      return sendPage(reply, landing(request.headers['accept-language']));
    });
  },
  { name: 'web-pages' },
);

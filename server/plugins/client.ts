import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ServerConfig } from '#server/config.ts';
import { errorBody } from './errors.ts';
import { readRoutePreloads, routePreloader } from './route-preloads.ts';

/** The runtime configuration object of ARCHITECTURE.md §5, as the browser receives it. */
export function runtimeConfig(config: ServerConfig, persistSecret: string) {
  const services = Object.fromEntries(Object.entries(config.services).map(([name, url]) => [`${name}Service`, url])) as Record<
    `${keyof ServerConfig['services']}Service`,
    string
  >;
  return {
    ...services,
    fontFamily: config.ui.fontFamily,
    i18n: config.ui.i18n,
    mode: config.ui.mode,
    presetColor: config.ui.presetColor,
    themeDirection: config.ui.themeDirection,
    miniDrawer: config.ui.miniDrawer,
    container: config.ui.container,
    defaultPath: config.ui.defaultPath,
    persistSecret,
    productKey: config.ui.productKey,
    version: config.version,
    /** Whether LDAP_URL is set: the users screen offers "Import from directory" only then (issue 23). */
    directoryConfigured: config.ldap !== undefined,
  };
}

export type RuntimeConfig = ReturnType<typeof runtimeConfig>;

interface ClientOptions {
  config: ServerConfig;
  persistSecret: string;
}

/**
 * Serves the built SPA: hashed assets with a long cache, `index.html` for every other GET
 * that asks for a page (history fallback), `/meta.json` for the version check and
 * `/config.js` for the runtime configuration. Unknown `/api/*` paths answer 404 in the
 * spec's error shape.
 */
export const clientPlugin = fp(async function client(app: FastifyInstance, { config, persistSecret }: ClientOptions) {
  const indexFile = path.join(config.clientDir, 'index.html');
  const hasClient = existsSync(indexFile);
  if (!hasClient) app.log.warn({ clientDir: config.clientDir }, 'no built client found; run `npm run build`');
  const indexHtml = hasClient ? readFileSync(indexFile, 'utf8') : '';
  // Each page's index names the files that page needs first (issue 22, docs/decisions/0289).
  const indexFor = routePreloader(indexHtml, hasClient ? readRoutePreloads(config.clientDir) : undefined, config.ui.i18n);

  app.get('/meta.json', { config: { access: 'public' }, schema: { hide: true } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { version: config.version };
  });

  const configScript = `window.__APP_CONFIG__ = ${JSON.stringify(runtimeConfig(config, persistSecret)).replace(/</g, '\\u003c')};\n`;
  app.get('/config.js', { config: { access: 'public' }, schema: { hide: true } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store').type('text/javascript; charset=utf-8');
    return configScript;
  });

  if (hasClient) {
    await app.register(fastifyStatic, {
      root: config.clientDir,
      prefix: '/',
      index: false,
      wildcard: false,
      // scripts/compress-assets.mjs writes .br/.gz beside each asset at build time.
      preCompressed: true,
      // Vite puts content-hashed files under /assets: safe to cache for a year.
      setHeaders(reply, filePath) {
        reply.header('cache-control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  // The index is a few KB and differs per route: each variant is compressed once, when first asked for.
  // @fastify/compress does not do it: its hooks do not run for the not-found handler that serves
  // every page's index, and calling reply.compress() there answered 500.
  const compressed = new Map<string, { br: Buffer; gzip: Buffer }>();
  const encodings = new Negotiator<'br' | 'gzip'>({ supportedValues: ['br', 'gzip'] });
  const sendIndex = (reply: FastifyReply, pathname = '/') => {
    const html = indexFor(pathname);
    reply.header('cache-control', 'no-cache').header('vary', 'accept-encoding').type('text/html; charset=utf-8');
    const encoding = encodings.negotiate(String(reply.request.headers['accept-encoding'] ?? ''));
    if (!encoding) return reply.send(html);
    let variants = compressed.get(html);
    if (!variants) compressed.set(html, (variants = { br: brotliCompressSync(html), gzip: gzipSync(html) }));
    return reply.header('content-encoding', encoding).send(variants[encoding]);
  };

  app.get('/', { config: { access: 'public' }, schema: { hide: true } }, async (_request, reply) => {
    if (!hasClient) return reply.status(503).type('text/plain').send('The client is not built. Run `npm run build`.');
    return sendIndex(reply);
  });

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    const pathname = request.url.split('?')[0];
    const wantsPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !pathname.startsWith('/api/') &&
      pathname !== '/api' &&
      !pathname.startsWith('/assets/') &&
      !path.extname(pathname) &&
      hasClient;
    if (wantsPage) return sendIndex(reply, pathname);
    return reply.status(404).send(errorBody(404, [`The resource ${request.method} ${pathname} was not found.`], `${request.method} ${pathname}`));
  });
});

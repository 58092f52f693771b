import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    /** `METHOD url` of every /api route whose success answer has no schema (serialized by JSON.stringify). */
    routesWithoutResponseSchema: string[];
  }
}

/**
 * Issue 22: every API answer is serialized by the code Fastify compiles from its response
 * schema (fast-json-stringify), several times faster than JSON.stringify, and never leaks a
 * field the schema does not name. Routes that declare no 2xx schema are listed, so a test can
 * keep the list empty.
 */
export const responseSchemasPlugin = fp(async function responseSchemas(app: FastifyInstance) {
  app.decorate('routesWithoutResponseSchema', []);
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || route.url.startsWith('/api/docs')) return;
    // A WebSocket route answers with an upgrade, not a body.
    if ((route as { websocket?: boolean; wsHandler?: unknown }).websocket || (route as { wsHandler?: unknown }).wsHandler) return;
    const codes = Object.keys((route.schema?.response as Record<string, unknown> | undefined) ?? {});
    if (codes.some((code) => code.startsWith('2') || code === '2xx')) return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) if (method !== 'HEAD') app.routesWithoutResponseSchema.push(`${method} ${route.url}`);
  });
});

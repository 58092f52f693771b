import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Db } from '#server/db/client.ts';

const HealthResponse = Type.Object({
  status: Type.Union([Type.Literal('Healthy'), Type.Literal('Unhealthy')]),
  database: Type.Object({ status: Type.String(), kind: Type.String(), latencyMs: Type.Number() }),
  version: Type.String(),
  uptimeSeconds: Type.Number(),
});

export async function healthRoutes(app: FastifyInstance, opts: { db: Db; version: string }) {
  app.get(
    '/health',
    {
      config: { access: 'public' },
      schema: {
        tags: ['health'],
        summary: 'Checks that the server and its database answer',
        response: { 200: HealthResponse, 503: HealthResponse },
      },
    },
    async (_request, reply) => {
      const started = performance.now();
      let ok = true;
      try {
        await opts.db.query('select 1');
      } catch (error) {
        ok = false;
        app.log.error({ err: error }, 'health check: database unreachable');
      }
      const body = {
        status: ok ? ('Healthy' as const) : ('Unhealthy' as const),
        database: { status: ok ? 'ok' : 'unreachable', kind: opts.db.kind, latencyMs: Math.round((performance.now() - started) * 100) / 100 },
        version: opts.version,
        uptimeSeconds: Math.round(process.uptime()),
      };
      return reply.status(ok ? 200 : 503).send(body);
    },
  );
}

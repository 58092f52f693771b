import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { Db } from '#server/db/client.ts';
import type { Clock } from '#server/lib/clock.ts';
import { AppError } from '#server/lib/errors.ts';
import type { DomainEventBus } from '#server/lib/domain-events.ts';
import { requirePrincipal } from '#server/plugins/access.ts';
import { InvalidTokenError } from '#server/modules/identity/jwt-tokens.ts';
import { loadPrincipal } from '#server/modules/identity/principal-repository.ts';
import { RealtimeHub, type SocketAuthResult } from './realtime-hub.ts';
import { protocolDescription } from '#machines/realtime-protocol.ts';
import { eventsForUser, latestEventId, oldestEventId } from './realtime-repository.ts';

export interface RealtimeDeps {
  db: Db;
  clock: Clock;
  events: DomainEventBus;
}

const tags = ['real-time'];
const MAX_MISSED = 500;

/** Seconds since the epoch when the (already verified) token expires. */
function expiryOf(token: string): Date {
  const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { exp?: number };
  return new Date((payload.exp ?? 0) * 1000);
}

const EventFrameSchema = Type.Object({
  type: Type.Literal('event'),
  cursor: Type.Integer({ description: 'Increases with every event; resume after the last one processed' }),
  kind: Type.Union([
    Type.Literal('chat.message'),
    Type.Literal('chat.read'),
    Type.Literal('ticket.changed'),
    Type.Literal('notification.created'),
    Type.Literal('notification.count'),
    Type.Literal('delivery.changed'),
    Type.Literal('delivery.room'),
  ]),
  ticketId: Type.Union([Type.Integer(), Type.Null()]),
  data: Type.Object({}, { additionalProperties: true }),
  at: Type.String({ format: 'date-time' }),
});

/** `/api/hubs/notifications` (WebSocket) and its HTTP catch-up (docs/decisions/0050). */
export async function realtimeRoutes(fastify: FastifyInstance, deps: RealtimeDeps) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const parent = fastify;

  const verifyToken = async (token: string): Promise<SocketAuthResult> => {
    const now = deps.clock.now();
    try {
      const claims = await parent.jwtSigner.verifyAccessToken(token, now);
      const principal = await loadPrincipal(deps.db, claims, now);
      if (!principal) return { ok: false, reason: 'ended' };
      return { ok: true, claims, principal, expiresAt: expiryOf(token) };
    } catch (error) {
      if (error instanceof InvalidTokenError && error.reason === 'expired') return { ok: false, reason: 'expired' };
      return { ok: false, reason: 'invalid' };
    }
  };

  const hub = new RealtimeHub({
    db: deps.db,
    clock: deps.clock,
    log: fastify.log,
    verifyToken,
    reloadPrincipal: (claims) => loadPrincipal(deps.db, claims, deps.clock.now()),
  });
  await hub.start();
  const onTicketChanged = (change: Parameters<RealtimeHub['publishTicketChange']>[0]) => {
    hub.publishTicketChange(change).catch((error) => fastify.log.error({ err: error, change }, 'realtime: ticket change not logged'));
  };
  deps.events.on('ticket.changed', onTicketChanged);
  fastify.addHook('preClose', async () => {
    deps.events.off('ticket.changed', onTicketChanged);
    await hub.stop();
  });

  // Full declaration (handler + wsHandler) so the route stays in the OpenAPI document.
  fastify.route({
    method: 'GET',
    url: '/hubs/notifications',
    // Browsers cannot set headers on a WebSocket: the token comes in the first frame.
    config: { access: 'public', rateLimit: [{ name: 'ip', max: 600, windowSeconds: 60 }] },
    schema: { tags, summary: 'Real-time pushes (WebSocket upgrade)', description: protocolDescription },
    handler: async () => {
      throw new AppError(426, 'This is a WebSocket endpoint: open it with a WebSocket upgrade.', { headers: { upgrade: 'websocket' } });
    },
    wsHandler: (socket) => hub.attach(socket),
  });

  app.get(
    '/hubs/notifications/missed',
    {
      config: { access: 'authenticated' },
      schema: {
        tags,
        security: [{ bearer: [] }],
        summary: 'The pushes you missed after a cursor, oldest first',
        description:
          'The same events the socket pushes, for a client that was away: every event after `after` that you may see now, at most `limit`. ' +
          'Continue from the answered `cursor` while `hasMore`. `resync` is true when `after` is older than the kept log: reload the views instead.',
        querystring: Type.Object({
          after: Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }),
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_MISSED, default: 200 })),
        }),
        response: {
          200: Type.Object({
            events: Type.Array(EventFrameSchema),
            cursor: Type.Integer(),
            hasMore: Type.Boolean(),
            resync: Type.Boolean(),
          }),
        },
      },
    },
    async (request) => {
      const p = requirePrincipal(request);
      const { after } = request.query;
      const limit = request.query.limit ?? 200;
      const until = await latestEventId(deps.db);
      const resync = (await oldestEventId(deps.db)) > after + 1;
      const events = after >= until ? [] : await eventsForUser(deps.db, p.userId, p.tenantId, after, until, limit + 1);
      const hasMore = events.length > limit;
      const page = events.slice(0, limit);
      return {
        events: page.map((row) => ({
          type: 'event' as const,
          cursor: row.id,
          kind: row.kind,
          ticketId: row.ticket_id,
          data: row.payload,
          at: new Date(row.created_at).toISOString(),
        })),
        cursor: hasMore ? page[page.length - 1].id : Math.max(after, until),
        hasMore,
        resync,
      };
    },
  );
}

import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { resultsRoutes, reviseForTicket, RESOLVED_TICKET_STATUS, type ResultsDeps } from './results-routes.ts';

export { announcePublished, reviseForTicket } from './results-routes.ts';

/**
 * Issue 20: results, marking, answer-key corrections and re-evaluation (under /api). A result is
 * made by the delivery's submission (results-service.ts); resolving a re-evaluation ticket on
 * the support desk revises its result, so the module listens to the tickets' domain events.
 */
export async function resultsModule(api: FastifyInstance, deps: ResultsDeps & { log: FastifyBaseLogger }) {
  await api.register(resultsRoutes, deps);
  const onTicket = (change: { ticketId: number; statusId: number; previousStatusId: number | null; actorId: string | null }) => {
    if (change.statusId !== RESOLVED_TICKET_STATUS || change.previousStatusId === RESOLVED_TICKET_STATUS) return;
    reviseForTicket(deps, change.ticketId, change.actorId).catch((error: unknown) =>
      deps.log.error({ err: error, ticketId: change.ticketId }, 'result revision failed'),
    );
  };
  deps.events.on('ticket.changed', onTicket);
  api.addHook('onClose', async () => void deps.events.off('ticket.changed', onTicket));
}

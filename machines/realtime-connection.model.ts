import type { EventObject } from 'xstate';
import { realtimeConnectionMachine, type RealtimeConnectionContext, type RealtimeConnectionEvent } from './realtime-connection.machine.ts';
import { CloseCodes, type ServerFrame } from './realtime-protocol.ts';
import { createMachineTestModel, transitionCoveringPaths } from './test-model.ts';

const frame = (f: ServerFrame): RealtimeConnectionEvent => ({ type: 'socket.frame', frame: f });
const AT = '2026-11-22T10:00:00.000Z';

/**
 * What the world may do to the connection in a state. Cursors are derived from the context so
 * every "new event" really is the next one and every "duplicate" repeats the last. The graph
 * stays finite through realtimeStateKey, which keeps what changes behaviour and drops the
 * cursor's value; a replay rebuilds each event for the live cursor (concretizeRealtimeEvent).
 */
export function realtimeConnectionModelEvents(context: RealtimeConnectionContext): RealtimeConnectionEvent[] {
  const cursor = context.cursor ?? 0;
  const events: RealtimeConnectionEvent[] = [
    { type: 'session.start', token: 't1' },
    { type: 'session.end' },
    { type: 'token.refreshed', token: 't2' },
    { type: 'browser.offline' },
    { type: 'browser.online' },
    frame({ type: 'ready', userId: 'u1', cursor: 10, expiresAt: AT }),
    frame({ type: 'pong' }),
    frame({ type: 'permissions.changed', permissions: ['Permissions.SupportChat.Use'] }),
    { type: 'socket.closed', code: CloseCodes.sessionEnded },
    { type: 'socket.closed', code: CloseCodes.unauthenticated },
  ];
  if (context.cursor !== null) events.push(frame({ type: 'event', cursor, kind: 'chat.message', ticketId: 1, data: {}, at: AT }));
  events.push(frame({ type: 'event', cursor: cursor + 1, kind: 'ticket.changed', ticketId: 1, data: {}, at: AT }));
  events.push(frame({ type: 'resync', cursor: cursor + 10 }));
  if (context.attempt < 2) events.push({ type: 'socket.closed', code: CloseCodes.goingAway });
  return events;
}

/** An event by its role ("a new event frame", "a duplicate"), without the cursor it carries. */
export function realtimeEventRole(event: EventObject): string {
  if (event.type === 'socket.frame') {
    const f = (event as Extract<RealtimeConnectionEvent, { type: 'socket.frame' }>).frame;
    if (f.type === 'event') return `frame.event(${f.kind === 'chat.message' ? 'duplicate' : 'new'})`;
    return `frame.${f.type}`;
  }
  if (event.type === 'socket.closed') return `socket.closed(${(event as unknown as { code: number }).code})`;
  return event.type;
}

/** What the graph tells apart: the state, the token, whether a cursor is held, a resume, how many failures (0, 1, more). */
export function realtimeStateKey(snapshot: { value: unknown; context: RealtimeConnectionContext }): string {
  const { token, cursor, everConnected, attempt } = snapshot.context;
  return JSON.stringify([snapshot.value, token, cursor === null, everConnected, Math.min(attempt, 2)]);
}

/** The model event of the same role, built for the live actor's context (its cursor). */
export function concretizeRealtimeEvent(event: EventObject, context: RealtimeConnectionContext): EventObject {
  const role = realtimeEventRole(event);
  const live = realtimeConnectionModelEvents(context).find((e) => realtimeEventRole(e) === role);
  return live ?? event;
}

export function realtimeConnectionModel() {
  return createMachineTestModel(realtimeConnectionMachine, {
    events: (snapshot) => realtimeConnectionModelEvents(snapshot.context) as EventObject[],
    serializeState: (snapshot) => realtimeStateKey(snapshot),
    serializeEvent: (event) => realtimeEventRole(event),
  });
}

/** Paths taking every transition of the realtime connection (docs/decisions/0015). */
export function realtimeConnectionTestPaths() {
  return transitionCoveringPaths(realtimeConnectionModel());
}

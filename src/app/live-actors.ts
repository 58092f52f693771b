import type { AnyActorRef, AnyStateMachine, InspectionEvent } from 'xstate';

/**
 * The actors running in this page, for the live mode of /machines. An actor registers itself
 * once it runs (one line where it is created) and the page draws its current state and its
 * latest events. Type-only xstate import: this module costs nothing until an actor exists.
 */
export interface LiveEvent {
  type: string;
  at: number;
}

export interface LiveActor {
  /** Names the running actor: `toast-queue`, `open-ticket` … */
  id: string;
  /** The id of its machine, as the catalogue lists it. */
  machineId: string;
  actorRef: AnyActorRef;
  /** Newest first, at most LIVE_EVENT_LIMIT. */
  events: LiveEvent[];
  /** Its owner stopped it but kept it listed, to show its last state and events. */
  stopped: boolean;
}

export const LIVE_EVENT_LIMIT = 20;

const actors = new Map<string, LiveActor & { stop: () => void }>();
const listeners = new Set<() => void>();
let version = 0;

function changed() {
  version += 1;
  for (const listener of listeners) listener();
}

/**
 * Lists a running actor until the returned function is called (or another actor registers
 * under the same id). Every event it receives from now on is kept, newest first. Called with
 * `{ keep: true }`, the actor stays listed as stopped with its last state and events.
 */
export function registerLiveActor(id: string, machine: Pick<AnyStateMachine, 'id'>, actorRef: AnyActorRef): (options?: { keep?: boolean }) => void {
  actors.get(id)?.stop();
  const entry: LiveActor & { stop: () => void } = { id, machineId: machine.id, actorRef, events: [], stopped: false, stop: () => {} };
  const inspection = actorRef.system.inspect((event: InspectionEvent) => {
    if (event.type !== '@xstate.event' || event.actorRef !== actorRef) return;
    entry.events = [{ type: event.event.type, at: Date.now() }, ...entry.events].slice(0, LIVE_EVENT_LIMIT);
    // The snapshot changes after the event is inspected; tell the page once it has.
    queueMicrotask(changed);
  });
  entry.stop = () => inspection.unsubscribe();
  actors.set(id, entry);
  changed();
  return (options) => {
    if (actors.get(id) !== entry) return;
    entry.stop();
    if (options?.keep) entry.stopped = true;
    else actors.delete(id);
    changed();
  };
}

export function liveActors(): LiveActor[] {
  return [...actors.values()];
}

/** For useSyncExternalStore: a number that changes with every registration and event. */
export function liveActorsVersion(): number {
  return version;
}

export function subscribeLiveActors(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

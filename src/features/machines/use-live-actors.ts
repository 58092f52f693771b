import { useSyncExternalStore } from 'react';
import { liveActors, liveActorsVersion, subscribeLiveActors, type LiveActor } from '#src/app/live-actors.ts';

/** The live actors of one machine; re-renders on every registration and event. */
export function useLiveActors(machineId: string): LiveActor[] {
  useSyncExternalStore(subscribeLiveActors, liveActorsVersion);
  return liveActors().filter((actor) => actor.machineId === machineId);
}

/** The ids of the states an actor is in now (its active state nodes, the machine's root left out). */
export function activeStateIds(actor: LiveActor): string[] {
  const snapshot = actor.actorRef.getSnapshot() as { _nodes?: Array<{ id: string; parent?: unknown }> };
  return (snapshot._nodes ?? []).filter((node) => node.parent).map((node) => node.id);
}

export function stateValueText(actor: LiveActor, format: (value: unknown) => string): string {
  const { value } = actor.actorRef.getSnapshot() as { value?: unknown };
  return format(value);
}

import { TestModel, serializeSnapshot } from '@xstate/graph';
import {
  __unsafe_getAllOwnEventDescriptors,
  type AnyMachineSnapshot,
  type AnyStateMachine,
  type EventFromLogic,
  type EventObject,
  type InputFrom,
  type SnapshotFrom,
} from 'xstate';

export interface MachineModelOptions<TMachine extends AnyStateMachine> {
  /**
   * Concrete events (with payloads) to try in a state. Event types the state accepts that are
   * not listed here are tried without a payload, as @xstate/graph does.
   */
  events?: (snapshot: SnapshotFrom<TMachine>) => ReadonlyArray<EventFromLogic<TMachine> | EventObject>;
  /**
   * Only the events `events` lists are tried: a type it leaves out in a state is not sent
   * there (for events that mean nothing without their payload, like an id).
   */
  exhaustive?: boolean;
  /**
   * What makes two snapshots the same node of the graph. Defaults to value + context; machines
   * whose context grows (ids, counters) pass an abstraction so the graph stays finite.
   */
  serializeState?: (snapshot: SnapshotFrom<TMachine>) => string;
  /**
   * What makes two events the same edge. Defaults to the whole event; models that generate
   * ids pass an abstraction (the id-free role of the event) for the same reason.
   */
  serializeEvent?: (event: EventFromLogic<TMachine>) => string;
  input?: InputFrom<TMachine>;
  /** Traversal stops with an error past this many steps (a model that does not stay finite). */
  limit?: number;
}

function stringify(value: unknown): string {
  return JSON.stringify(value);
}

/**
 * The test model of a machine, for model-based tests and the /machines page.
 *
 * Same as @xstate/graph's `createTestModel` minus its refusal of `after` and `invoke`: our
 * machines time with `after` and do their I/O in invoked actors (CONVENTIONS.md), so their
 * delayed events (`xstate.after.*`) and completion events (`xstate.done.actor.*`,
 * `xstate.error.actor.*`) are edges of the graph like any other event. A replay against a
 * live actor advances fake time or settles the fake actor for them (docs/decisions/0015).
 */
export function createMachineTestModel<TMachine extends AnyStateMachine>(machine: TMachine, options: MachineModelOptions<TMachine> = {}) {
  const serializeState = options.serializeState ?? ((snapshot: SnapshotFrom<TMachine>) => serializeSnapshot(snapshot));
  const serializeEvent = options.serializeEvent ?? ((event: EventFromLogic<TMachine>) => stringify(event));
  type Snapshot = SnapshotFrom<TMachine>;
  type Event = EventFromLogic<TMachine>;
  return new TestModel<Snapshot, Event, InputFrom<TMachine>>(
    machine as never,
    {
      serializeState: (snapshot: Snapshot, event: Event | undefined, previousSnapshot?: Snapshot) => {
        const current = snapshot as AnyMachineSnapshot;
        const previous = previousSnapshot as AnyMachineSnapshot | undefined;
        // As createTestModel: a change of state value through a different event is a different
        // node, so every transition that changes the value shows up on some path.
        const via =
          event && previous && stringify(previous.value) !== stringify(current.value) ? ` via ${serializeEvent(event)} from ${stringify(previous.value)}` : '';
        return `${serializeState(snapshot)}${via}`;
      },
      serializeEvent,
      limit: options.limit ?? 20_000,
      stateMatcher: (snapshot: Snapshot, key: string) =>
        key.startsWith('#')
          ? (snapshot as AnyMachineSnapshot)._nodes.includes(machine.getStateNodeById(key))
          : (snapshot as AnyMachineSnapshot).matches(key as never),
      events: (snapshot: Snapshot) => {
        const concrete = (options.events?.(snapshot) ?? []) as Event[];
        if (options.exhaustive) return concrete;
        return __unsafe_getAllOwnEventDescriptors(snapshot).flatMap((type) => {
          const matching = concrete.filter((event) => event.type === type);
          return matching.length > 0 ? matching : [{ type } as Event];
        });
      },
      ...(options.input === undefined ? {} : { input: options.input }),
    } as never,
  );
}

/** One path as the /machines page lists it and a replay walks it. */
export interface ModelPath<TMachine extends AnyStateMachine> {
  description: string;
  state: SnapshotFrom<TMachine>;
  steps: ReadonlyArray<{ event: EventFromLogic<TMachine>; state: SnapshotFrom<TMachine> }>;
}

/** `xstate.after.<delay>.<state id>` → the delay key (a number of ms or a named delay). */
export function delayOfEvent(eventType: string): string | null {
  const match = /^xstate\.after\.([^.]+)\./.exec(eventType);
  return match ? match[1] : null;
}

type AnyTestModel = ReturnType<typeof createMachineTestModel<AnyStateMachine>>;

/**
 * Paths that take every edge of the model's graph: for each node the shortest way there,
 * then each event it accepts. Shortest paths alone reach every node but can skip an edge
 * whose target is reached some other way (a guarded branch that loops back, say).
 */
export function transitionCoveringPaths<TModel extends AnyTestModel>(model: TModel): Array<ModelPath<AnyStateMachine>> {
  type Step = { event: EventObject; state: SnapshotFrom<AnyStateMachine> };
  const adjacency = model.getAdjacencyMap() as Record<string, { state: SnapshotFrom<AnyStateMachine>; transitions: Record<string, Step> }>;
  const serializeState = model.options.serializeState as (state: unknown, event?: unknown, previous?: unknown) => string;
  const serializeEvent = model.options.serializeEvent as (event: unknown) => string;
  const [initialKey] = Object.keys(adjacency);
  const initial = adjacency[initialKey].state;
  const initStep: Step = { event: { type: 'xstate.init' }, state: initial };

  const routes = new Map<string, Step[]>([[initialKey, []]]);
  const queue = [initialKey];
  while (queue.length) {
    const key = queue.shift()!;
    for (const step of Object.values(adjacency[key].transitions)) {
      const next = serializeState(step.state, step.event, adjacency[key].state);
      if (routes.has(next) || !adjacency[next]) continue;
      routes.set(next, [...routes.get(key)!, step]);
      queue.push(next);
    }
  }

  const paths: Array<ModelPath<AnyStateMachine>> = [];
  for (const [key, route] of routes) {
    const edges = Object.values(adjacency[key].transitions);
    const walks = edges.length ? edges.map((edge) => [...route, edge]) : [route];
    for (const walk of walks) {
      const steps = [initStep, ...walk];
      paths.push({
        description: walk.length ? walk.map((s) => serializeEvent(s.event)).join(' → ') : 'the initial state',
        state: steps[steps.length - 1].state,
        steps: steps as never,
      });
    }
  }
  return paths;
}

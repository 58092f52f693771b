import type { AnyMachineSnapshot, AnyStateMachine, AnyStateNode, EventObject } from 'xstate';

/**
 * Which states and transitions of a machine a set of test paths walks. Model-based tests
 * report it (a line per machine, and a JSON report the /machines page shows as a badge).
 * Pure: no I/O, usable by tests and by the app.
 */
export interface CoverageReport {
  machineId: string;
  states: { covered: string[]; total: string[] };
  transitions: { covered: string[]; total: string[] };
}

export interface PathLike {
  state: AnyMachineSnapshot;
  steps: ReadonlyArray<{ event: EventObject; state: AnyMachineSnapshot }>;
}

function allStateNodes(node: AnyStateNode): AnyStateNode[] {
  return Object.values(node.states as Record<string, AnyStateNode>).flatMap((child) => [child, ...allStateNodes(child)]);
}

/** `source --event--> target1,target2` (targetless transitions point at their source). */
export function transitionKey(source: AnyStateNode, eventType: string, targets: readonly AnyStateNode[] | undefined): string {
  const to = targets?.length ? targets.map((t) => t.id).join(',') : source.id;
  return `${source.id} --${eventType}--> ${to}`;
}

function transitionsOf(node: AnyStateNode): Array<{ eventType: string; key: string; targets: readonly AnyStateNode[] | undefined }> {
  const list: Array<{ eventType: string; key: string; targets: readonly AnyStateNode[] | undefined }> = [];
  for (const [eventType, definitions] of node.transitions as Map<string, Array<{ target?: readonly AnyStateNode[] }>>) {
    for (const definition of definitions) {
      list.push({ eventType, targets: definition.target, key: transitionKey(node, eventType, definition.target) });
    }
  }
  for (const definition of (node.always ?? []) as Array<{ target?: readonly AnyStateNode[] }>) {
    list.push({ eventType: '(always)', targets: definition.target, key: transitionKey(node, '(always)', definition.target) });
  }
  return list;
}

function activeIds(snapshot: AnyMachineSnapshot): Set<string> {
  return new Set((snapshot._nodes as AnyStateNode[]).filter((n) => n.parent).map((n) => n.id));
}

export function computeCoverage(machine: AnyStateMachine, paths: readonly PathLike[]): CoverageReport {
  const nodes = allStateNodes(machine.root);
  const totalTransitions = new Set(nodes.concat(machine.root).flatMap((n) => transitionsOf(n).map((t) => t.key)));
  const coveredStates = new Set<string>();
  const coveredTransitions = new Set<string>();

  // A machine may start in a state it leaves at once (an `always` choosing where to begin): the
  // first snapshot shows only where it went, so the way there is read off the first step.
  const initialNodes = ((machine.root.initial as { target?: readonly AnyStateNode[] } | undefined)?.target ?? []).filter((node) => node.always?.length);

  for (const path of paths) {
    let previous: AnyMachineSnapshot | undefined;
    for (const step of path.steps) {
      const after = activeIds(step.state);
      after.forEach((id) => coveredStates.add(id));
      if (!previous) {
        for (const node of initialNodes) {
          const taken = transitionsOf(node).find((t) => t.eventType === '(always)' && t.targets?.every((target) => after.has(target.id)));
          if (!taken || after.has(node.id)) continue;
          coveredStates.add(node.id);
          coveredTransitions.add(taken.key);
        }
      }
      if (previous) {
        const before = previous._nodes as AnyStateNode[];
        for (const node of before) {
          for (const t of transitionsOf(node)) {
            if (t.eventType !== step.event.type) continue;
            const reached = t.targets?.length ? t.targets.every((target) => after.has(target.id) || target === machine.root) : true;
            if (reached) coveredTransitions.add(t.key);
          }
        }
        // Eventless transitions taken on the way (always) show as their target being active.
        for (const node of before) {
          for (const t of transitionsOf(node)) {
            if (t.eventType === '(always)' && t.targets?.every((target) => after.has(target.id))) coveredTransitions.add(t.key);
          }
        }
      }
      previous = step.state;
    }
    activeIds(path.state).forEach((id) => coveredStates.add(id));
  }

  const total = nodes.map((n) => n.id);
  return {
    machineId: machine.id,
    states: { covered: total.filter((id) => coveredStates.has(id)), total },
    transitions: { covered: [...totalTransitions].filter((k) => coveredTransitions.has(k)), total: [...totalTransitions] },
  };
}

/** The keys of the transitions the paths take, together: what a path sample is chosen to cover. */
export function transitionsTakenBy(machine: AnyStateMachine, paths: readonly PathLike[]): string[] {
  return computeCoverage(machine, paths).transitions.covered;
}

/** Every transition key of the machine's graph. */
export function allTransitionsOf(machine: AnyStateMachine): string[] {
  return computeCoverage(machine, []).transitions.total;
}

export function coverageLine(report: CoverageReport): string {
  const pct = (a: number, b: number) => (b === 0 ? 100 : Math.round((a / b) * 100));
  const s = report.states;
  const t = report.transitions;
  return `${report.machineId}: states ${s.covered.length}/${s.total.length} (${pct(s.covered.length, s.total.length)}%), transitions ${t.covered.length}/${t.total.length} (${pct(t.covered.length, t.total.length)}%)`;
}

/**
 * A path's identity across the tests and the /machines page: its events (the init step left
 * out), as the same model generates them on both sides.
 */
export function pathKey(path: { steps: ReadonlyArray<{ event: EventObject }> }): string {
  return JSON.stringify(path.steps.filter((step) => step.event.type !== 'xstate.init').map((step) => step.event));
}

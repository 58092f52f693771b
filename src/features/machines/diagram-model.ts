import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { transitionKey } from '#machines/graph-coverage.ts';

/**
 * What a statechart diagram shows, read from a machine definition at run time: the state
 * tree (nested and parallel states, initial and final markers, entry/exit actions, invoked
 * actors, tags) and every transition with its event, guard, actions and delay. Nothing here
 * is written per machine, so changing a machine changes its diagram.
 */
export type DiagramStateType = 'atomic' | 'compound' | 'parallel' | 'final' | 'history';

export interface DiagramTransition {
  /** The key graph-coverage gives this transition (paths and coverage use it too). */
  key: string;
  sourceId: string;
  /** Target state ids; empty for a targetless (internal) transition. */
  targetIds: string[];
  eventType: string;
  /** The event as shown: `ticket.claim`, `done(fetchPage)`, `after 6000 ms` … */
  event: string;
  guard: string | null;
  actions: string[];
  /** For delayed transitions: the delay as shown (`6000 ms`, `autoHide = 6000 ms`). */
  delay: string | null;
  /** `event [guard] / action, action` */
  label: string;
  /** No target: shown inside its state, it changes no state. */
  internal: boolean;
  /** Index among the transitions of the same source and event (guarded branches). */
  branch: number;
}

export interface DiagramState {
  id: string;
  key: string;
  parentId: string | null;
  type: DiagramStateType;
  /** A region of a parallel state (drawn with a dashed border). */
  region: boolean;
  /** Child state ids in definition order. */
  children: string[];
  /** The initial child's id (compound states). */
  initialId: string | null;
  entry: string[];
  exit: string[];
  invokes: string[];
  tags: string[];
  /** Targetless transitions, listed inside the state. */
  internal: DiagramTransition[];
  depth: number;
}

export interface DiagramModel {
  machineId: string;
  rootId: string;
  /** Pre-order: every parent before its children; the machine's root first. */
  states: DiagramState[];
  /** Transitions that change state (internal ones live on their state). */
  transitions: DiagramTransition[];
}

type Named = { type?: unknown; guards?: unknown[]; check?: unknown };

function toArray<T>(value: T | readonly T[] | undefined | null): T[] {
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? [...(value as T[])] : [value as T];
}

function stripXstate(name: string): string {
  return name.startsWith('xstate.') ? name.slice('xstate.'.length) : name;
}

/** A guard as written: a name, `and(a, b)`, `not(a)`, or `inline` for an anonymous function. */
export function guardName(guard: unknown): string | null {
  if (guard === undefined || guard === null) return null;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') {
    const fn = guard as Named & { name: string };
    if (Array.isArray(fn.guards) && typeof fn.check === 'function') {
      return `${fn.name}(${fn.guards.map((g) => guardName(g) ?? 'inline').join(', ')})`;
    }
    return fn.name && fn.name !== 'guard' ? fn.name : 'inline';
  }
  if (typeof guard === 'object' && typeof (guard as Named).type === 'string') return (guard as { type: string }).type;
  return 'inline';
}

/** An action as written: its name, a built-in (`assign`, `raise` …) or `inline`. */
export function actionName(action: unknown): string {
  if (typeof action === 'string') return action;
  if (typeof action === 'function') {
    const fn = action as Named & { name: string };
    if (typeof fn.type === 'string') return stripXstate(fn.type);
    return fn.name ? fn.name : 'inline';
  }
  if (action && typeof action === 'object' && typeof (action as Named).type === 'string') return stripXstate((action as { type: string }).type);
  return 'inline';
}

function srcName(src: unknown): string {
  if (typeof src === 'string') return src;
  const logic = src as { id?: unknown; config?: { id?: unknown } } | undefined;
  if (typeof logic?.id === 'string') return logic.id;
  if (typeof logic?.config?.id === 'string') return logic.config.id;
  return 'inline';
}

/** `xstate.done.actor.loadTicket` → `done(loadTicket)`; other events keep their type. */
export function eventLabel(eventType: string): string {
  const done = /^xstate\.done\.actor\.(.+)$/.exec(eventType);
  if (done) return `done(${done[1]})`;
  const error = /^xstate\.error\.actor\.(.+)$/.exec(eventType);
  if (error) return `error(${error[1]})`;
  if (/^xstate\.done\.state\./.test(eventType)) return 'done';
  if (eventType === '') return '(always)';
  return eventType;
}

function delayText(machine: AnyStateMachine, delay: unknown): string {
  if (typeof delay === 'number') return `${delay} ms`;
  const named = (machine.implementations.delays as Record<string, unknown> | undefined)?.[String(delay)];
  return typeof named === 'number' ? `${String(delay)} = ${named} ms` : String(delay);
}

export function transitionLabel(t: Pick<DiagramTransition, 'event' | 'guard' | 'actions'>): string {
  let label = t.event;
  if (t.guard) label += ` [${t.guard}]`;
  if (t.actions.length) label += ` / ${t.actions.join(', ')}`;
  return label;
}

function stateType(node: AnyStateNode): DiagramStateType {
  if (node.type === 'final') return 'final';
  if (node.type === 'history') return 'history';
  if (node.type === 'parallel') return 'parallel';
  if (node.type === 'compound') return 'compound';
  return 'atomic';
}

interface RawTransition {
  target?: readonly AnyStateNode[];
  guard?: unknown;
  actions?: readonly unknown[];
  delay?: unknown;
}

function transitionsOf(machine: AnyStateMachine, node: AnyStateNode): DiagramTransition[] {
  const list: DiagramTransition[] = [];
  const add = (eventType: string, definitions: readonly RawTransition[]) => {
    definitions.forEach((definition, branch) => {
      const delay = definition.delay === undefined ? null : delayText(machine, definition.delay);
      const event = delay === null ? eventLabel(eventType) : `after ${delay}`;
      const guard = guardName(definition.guard);
      const actions = toArray(definition.actions).map(actionName);
      const targets = toArray(definition.target);
      const t: DiagramTransition = {
        key: transitionKey(node, eventType, targets),
        sourceId: node.id,
        targetIds: targets.map((target) => target.id),
        eventType,
        event,
        guard,
        actions,
        delay,
        label: '',
        internal: targets.length === 0,
        branch,
      };
      t.label = transitionLabel(t);
      list.push(t);
    });
  };
  for (const [eventType, definitions] of node.transitions as Map<string, RawTransition[]>) add(eventType, definitions);
  if (node.always?.length) {
    add('(always)', node.always as RawTransition[]);
  }
  return list;
}

/** The diagram model of a machine, derived from its definition. */
export function diagramModel(machine: AnyStateMachine): DiagramModel {
  const states: DiagramState[] = [];
  const transitions: DiagramTransition[] = [];

  const visit = (node: AnyStateNode, depth: number) => {
    const children = Object.values(node.states as Record<string, AnyStateNode>);
    const all = transitionsOf(machine, node);
    const config = node.config as { entry?: unknown; exit?: unknown };
    const initialTarget = (node.initial as { target?: readonly AnyStateNode[] } | undefined)?.target?.[0];
    states.push({
      id: node.id,
      key: node.parent ? node.key : machine.id,
      parentId: node.parent ? node.parent.id : null,
      type: stateType(node),
      region: node.parent?.type === 'parallel',
      children: children.map((child) => child.id),
      initialId: node.type === 'compound' && initialTarget ? initialTarget.id : null,
      entry: toArray(config.entry).map(actionName),
      exit: toArray(config.exit).map(actionName),
      invokes: (node.invoke as Array<{ id: string; src: unknown }>).map((invoke) => srcName(invoke.src)),
      tags: [...(node.tags as readonly string[])],
      internal: all.filter((t) => t.internal),
      depth,
    });
    transitions.push(...all.filter((t) => !t.internal));
    for (const child of children) visit(child, depth + 1);
  };
  visit(machine.root, 0);

  return { machineId: machine.id, rootId: machine.root.id, states, transitions };
}

/** Every state id of the model, root excluded: what coverage counts. */
export function stateIds(model: DiagramModel): string[] {
  return model.states.filter((s) => s.parentId !== null).map((s) => s.id);
}

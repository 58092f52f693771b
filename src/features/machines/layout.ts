import type { ElkExtendedEdge, ElkNode } from 'elkjs/lib/elk-api';
import type { DiagramModel, DiagramState, DiagramTransition } from './diagram-model.ts';

/**
 * Lays a diagram model out with elkjs (layered, top to bottom, hierarchy included so edges
 * may cross state boundaries) and returns absolute coordinates for the SVG. Top to bottom
 * needs no mirroring in right-to-left layouts (docs/decisions/0070).
 */

export interface Point {
  x: number;
  y: number;
}
export interface Box extends Point {
  width: number;
  height: number;
}
export interface LaidOutState extends Box {
  state: DiagramState;
  /** Text lines under the name: entry/exit actions, invoked actors, internal transitions. */
  details: string[];
}
export interface LaidOutEdge {
  id: string;
  sourceId: string;
  targetId: string;
  /** The transitions between the same two states share one arrow, a label line each; none for an initial marker's arrow. */
  transitions: DiagramTransition[];
  points: Point[];
  label: Box | null;
}
export interface DiagramLayout {
  width: number;
  height: number;
  states: LaidOutState[];
  /** Initial markers (filled circles), one per compound state with an initial child. */
  initials: Array<Box & { parentId: string; targetId: string }>;
  edges: LaidOutEdge[];
}

export const FONT_SIZE = 12;
/** Average advance of a character at FONT_SIZE (Public Sans), with a margin. */
export const CHAR_WIDTH = 7;
export const LINE_HEIGHT = 16;
const HEADER = 26;
const PAD = 12;
const INITIAL_SIZE = 12;

export function textWidth(text: string): number {
  return Math.ceil(text.length * CHAR_WIDTH);
}

/** A transition's label on up to three lines (event, [guard], / actions), so arrows stay narrow. */
export function labelLines(t: Pick<DiagramTransition, 'event' | 'guard' | 'actions'>): string[] {
  return [t.event, ...(t.guard ? [`[${t.guard}]`] : []), ...(t.actions.length ? [`/ ${t.actions.join(', ')}`] : [])];
}

export function stateDetails(state: DiagramState): string[] {
  return [
    ...state.entry.map((a) => `entry / ${a}`),
    ...state.exit.map((a) => `exit / ${a}`),
    ...state.invokes.map((src) => `invoke ${src}`),
    ...state.internal.map((t) => t.label),
  ];
}

const initialId = (parentId: string) => `${parentId}::initial`;

export interface EdgeGroup {
  sourceId: string;
  targetId: string;
  transitions: DiagramTransition[];
}

/** One arrow per (source, target) pair, in definition order. */
export function edgeGroups(model: DiagramModel): EdgeGroup[] {
  const groups = new Map<string, EdgeGroup>();
  for (const t of model.transitions) {
    for (const targetId of t.targetIds) {
      const key = `${t.sourceId}\u0000${targetId}`;
      const group = groups.get(key) ?? { sourceId: t.sourceId, targetId, transitions: [] };
      group.transitions.push(t);
      groups.set(key, group);
    }
  }
  return [...groups.values()];
}

export interface LayoutEngine {
  layout(graph: ElkNode): Promise<ElkNode>;
}

let defaultEngine: Promise<LayoutEngine> | undefined;
/**
 * elkjs (1.4 MB, 440 KB gzip) loads with the first layout, never with the app's first screen.
 * In the browser it runs in a Web Worker, so laying out a large machine never blocks the page;
 * without workers (jsdom) the bundled build runs in place.
 */
function loadEngine(): Promise<LayoutEngine> {
  defaultEngine ??=
    typeof Worker === 'function'
      ? Promise.all([import('elkjs/lib/elk-api.js'), import('elkjs/lib/elk-worker.min.js?url')]).then(
          ([{ default: ELK }, { default: workerUrl }]) => new ELK({ workerUrl }),
        )
      : import('elkjs/lib/elk.bundled.js').then(({ default: ELK }) => new ELK());
  return defaultEngine;
}

export function elkGraph(model: DiagramModel): ElkNode {
  const byId = new Map(model.states.map((s) => [s.id, s]));
  const edges: ElkExtendedEdge[] = [];

  const node = (state: DiagramState): ElkNode => {
    const details = stateDetails(state);
    const nameWidth = textWidth(state.key) + (state.tags.length ? textWidth(` (${state.tags.join(', ')})`) : 0);
    const width = Math.max(90, nameWidth, ...details.map(textWidth)) + 2 * PAD;
    if (state.children.length === 0) {
      return { id: state.id, width, height: HEADER + details.length * LINE_HEIGHT + PAD };
    }
    const children = state.children.map((id) => node(byId.get(id)!));
    if (state.initialId) {
      children.unshift({ id: initialId(state.id), width: INITIAL_SIZE, height: INITIAL_SIZE });
      edges.push({ id: `${initialId(state.id)}->`, sources: [initialId(state.id)], targets: [state.initialId] });
    }
    return {
      id: state.id,
      children,
      layoutOptions: {
        'elk.padding': `[top=${HEADER + details.length * LINE_HEIGHT + PAD},left=${PAD},bottom=${PAD},right=${PAD}]`,
        'elk.nodeSize.constraints': 'MINIMUM_SIZE',
        'elk.nodeSize.minimum': `(${width}, ${HEADER + details.length * LINE_HEIGHT + 2 * PAD})`,
      },
    };
  };

  const root = node(byId.get(model.rootId)!);
  edgeGroups(model).forEach((group, index) => {
    edges.push({
      id: `e${index}`,
      sources: [group.sourceId],
      targets: [group.targetId],
      labels: [
        {
          text: group.transitions.map((t) => t.label).join('\n'),
          width: Math.max(...group.transitions.flatMap(labelLines).map(textWidth)) + 8,
          height: group.transitions.flatMap(labelLines).length * LINE_HEIGHT + 2,
        },
      ],
    });
  });

  return {
    id: '::graph',
    layoutOptions: {
      'elk.algorithm': 'layered',
      'elk.direction': 'DOWN',
      'elk.hierarchyHandling': 'INCLUDE_CHILDREN',
      'elk.json.shapeCoords': 'ROOT',
      'elk.json.edgeCoords': 'ROOT',
      'elk.edgeRouting': 'ORTHOGONAL',
      'elk.spacing.nodeNode': '32',
      'elk.spacing.edgeLabel': '4',
      'elk.spacing.edgeNode': '16',
      'elk.layered.spacing.nodeNodeBetweenLayers': '48',
      'elk.layered.spacing.edgeNodeBetweenLayers': '16',
      'elk.edgeLabels.placement': 'CENTER',
      'elk.padding': '[top=8,left=8,bottom=8,right=8]',
    },
    children: [root],
    edges,
  };
}

/** Turns elk's answer into the layout the SVG draws. */
export function readLayout(model: DiagramModel, laid: ElkNode): DiagramLayout {
  const byId = new Map(model.states.map((s) => [s.id, s]));
  const states: LaidOutState[] = [];
  const initials: DiagramLayout['initials'] = [];
  const walk = (n: ElkNode) => {
    const state = byId.get(n.id);
    const box = { x: n.x ?? 0, y: n.y ?? 0, width: n.width ?? 0, height: n.height ?? 0 };
    if (state) states.push({ ...box, state, details: stateDetails(state) });
    else if (n.id.endsWith('::initial')) {
      const parentId = n.id.slice(0, -'::initial'.length);
      initials.push({ ...box, parentId, targetId: byId.get(parentId)!.initialId! });
    }
    n.children?.forEach(walk);
  };
  laid.children?.forEach(walk);

  const groups = new Map(edgeGroups(model).map((group, index) => [`e${index}`, group]));

  const edges: LaidOutEdge[] = [];
  const collect = (n: ElkNode) => {
    for (const edge of (n.edges ?? []) as ElkExtendedEdge[]) {
      const points = (edge.sections ?? []).flatMap((section) => [section.startPoint, ...(section.bendPoints ?? []), section.endPoint]);
      const label = edge.labels?.[0];
      const group = groups.get(edge.id);
      edges.push({
        id: edge.id,
        sourceId: edge.sources[0],
        targetId: edge.targets[0],
        transitions: group?.transitions ?? [],
        points,
        label: label ? { x: label.x ?? 0, y: label.y ?? 0, width: label.width ?? 0, height: label.height ?? 0 } : null,
      });
    }
    n.children?.forEach(collect);
  };
  collect(laid);
  return { width: laid.width ?? 0, height: laid.height ?? 0, states, initials, edges };
}

export async function layoutDiagram(model: DiagramModel, engine?: LayoutEngine): Promise<DiagramLayout> {
  const elk = engine ?? (await loadEngine());
  const laid = await elk.layout(elkGraph(model));
  return readLayout(model, laid);
}

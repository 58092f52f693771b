import { describe, expect, it } from 'vitest';
import { ticketLifecycleMachine } from '#machines/ticket-lifecycle.machine.ts';
import { diagramModel } from '#src/features/machines/diagram-model.ts';
import { edgeGroups, elkGraph, layoutDiagram, type Box } from '#src/features/machines/layout.ts';
import { fixtureMachine } from '#tests/fixtures/fixture-machine.ts';

const inside = (inner: Box, outer: Box) =>
  inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height;
const touches = (p: { x: number; y: number }, b: Box) => p.x >= b.x - 1 && p.x <= b.x + b.width + 1 && p.y >= b.y - 1 && p.y <= b.y + b.height + 1;

describe('layout adapter (elkjs)', () => {
  it('should give elk one arrow per pair of states, labelled with a line per transition', () => {
    const model = diagramModel(ticketLifecycleMachine);
    const groups = edgeGroups(model);
    const openToInProgress = groups.find((g) => g.sourceId === 'ticketLifecycle.Open' && g.targetId === 'ticketLifecycle.InProgress')!;
    expect(openToInProgress.transitions.map((t) => t.label)).toEqual(['ticket.claim [isPermitted]', 'ticket.reassign [and(isPermitted, isReassignToUser)]']);
    const graph = elkGraph(model);
    expect(graph.layoutOptions).toMatchObject({ 'elk.algorithm': 'layered', 'elk.hierarchyHandling': 'INCLUDE_CHILDREN', 'elk.json.edgeCoords': 'ROOT' });
    // Every group, plus the arrow from the initial marker.
    expect(graph.edges).toHaveLength(groups.length + 1);
  });

  it('should place nested states inside their parents and route each arrow from its source to its target', async () => {
    const model = diagramModel(fixtureMachine());
    const layout = await layoutDiagram(model);
    const box = (id: string) => layout.states.find((s) => s.state.id === id)!;
    expect(layout.states).toHaveLength(model.states.length);
    for (const s of layout.states) {
      if (s.state.parentId) expect(inside(s, box(s.state.parentId)), s.state.id).toBe(true);
    }
    expect(layout.initials.map((i) => i.targetId).sort()).toEqual(['fixture.idle', 'fixture.running.engine.warming', 'fixture.running.radio.off']);
    for (const i of layout.initials) expect(inside(i, box(i.parentId))).toBe(true);
    const transitionEdges = layout.edges.filter((e) => e.transitions.length > 0);
    expect(transitionEdges).toHaveLength(4);
    for (const edge of layout.edges) {
      expect(edge.points.length).toBeGreaterThanOrEqual(2);
      const target = box(edge.targetId);
      expect(touches(edge.points[edge.points.length - 1], target), `${edge.id} ends at ${edge.targetId}`).toBe(true);
      if (edge.transitions.length) {
        expect(touches(edge.points[0], box(edge.sourceId)), `${edge.id} starts at ${edge.sourceId}`).toBe(true);
        expect(edge.label!.width).toBeGreaterThan(0);
      }
    }
    expect(layout.width).toBeGreaterThan(0);
  });
});
